export * from './port/event-bus.port';
