// @tollgate/runtime/main: what a service's main.ts needs before it knows whether it is a cluster
// primary, which only forks workers. Nothing imported from here may load NestJS, MikroORM, Kafka,
// Redis or OpenTelemetry (test/integration/main-entry.spec.ts checks it); runMain loads those lazily
// in the process that runs the service.
export * from './service-runtime';
export * from './run-main';
export * from './listen-path';
export * from './lazy-distributed-runtime';
export * from './young-call-state';
export type { DistributedRuntimeNeeds } from './distributed-runtime';
