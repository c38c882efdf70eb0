// Everything the runtime offers. A service's main.ts imports @tollgate/runtime/main instead (./main):
// this entry loads NestJS, MikroORM, Kafka, Redis and OpenTelemetry.
export * from './main';
export * from './worker-count';
export * from './free-port';
export * from './free-list-pool';
export * from './chunked-framing';
export * from './socket-lock';
export * from './distributed-runtime';
export * from './service-database-options';
export * from './service-infrastructure.module';
export * from './start-nest-service';
export * from './bus-logger';
export * from './correlated-event-bus';
export * from './settings-table';
export * from './event-transport';
export * from './start-telemetry';
