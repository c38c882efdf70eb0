export * from './service-runtime';
export * from './distributed-runtime';
export * from './run-main';
export * from './service-infrastructure.module';
export * from './start-nest-service';
export * from './bus-logger';
export * from './correlated-event-bus';
export * from './free-port';
