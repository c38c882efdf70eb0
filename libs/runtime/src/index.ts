import type * as BusLogger from './bus-logger';
import type * as CorrelatedEventBusModule from './correlated-event-bus';
import type * as DistributedRuntime from './distributed-runtime';
import type * as EventTransport from './event-transport';
import type * as ServiceInfrastructure from './service-infrastructure.module';
import type * as StartNestService from './start-nest-service';
import type * as SettingsTableModule from './settings-table';

// Cheap to load: what a clustered primary needs (runMain) and modules with type-only imports.
export * from './service-runtime';
export * from './run-main';
export * from './free-port';
export * from './socket-lock';

// The rest pulls in NestJS, MikroORM, Kafka, Redis and OpenTelemetry (about 100 MB of RSS). A
// service's main.ts imports this package before it knows whether it is a cluster primary, which
// never uses them, so these exports load their module on first access instead of here.
export type { BusEventOptions, DecodedEvent, EventBusTransportOptions } from './event-transport';
export type { DistributedRuntimeNeeds } from './distributed-runtime';
export type { ServiceDatabaseOptions, ServiceInfrastructureOptions } from './service-infrastructure.module';
export type { NestServiceSpec } from './start-nest-service';
export type ServiceInfrastructureModule = ServiceInfrastructure.ServiceInfrastructureModule;
export type CorrelatedEventBus = CorrelatedEventBusModule.CorrelatedEventBus;
export type SettingsTable = SettingsTableModule.SettingsTable;
export type BusEventContext = EventTransport.BusEventContext;
export type EventBusTransport = EventTransport.EventBusTransport;

export declare const createDistributedRuntime: typeof DistributedRuntime.createDistributedRuntime;
export declare const ServiceInfrastructureModule: typeof ServiceInfrastructure.ServiceInfrastructureModule;
export declare const startNestService: typeof StartNestService.startNestService;
export declare const busLoggerFor: typeof BusLogger.busLoggerFor;
export declare const CorrelatedEventBus: typeof CorrelatedEventBusModule.CorrelatedEventBus;
export declare const SettingsTable: typeof SettingsTableModule.SettingsTable;
// @nestjs/microservices, and through the failure rule @tollgate/persistence (MikroORM).
export declare const BusEvent: typeof EventTransport.BusEvent;
export declare const BusEventContext: typeof EventTransport.BusEventContext;
export declare const EventBusTransport: typeof EventTransport.EventBusTransport;

const exportOnFirstUse = (name: string, load: () => Record<string, unknown>): void => {
  Object.defineProperty(exports, name, { enumerable: true, get: () => load()[name] });
};

/* eslint-disable @typescript-eslint/no-require-imports -- a synchronous load on first access is the point */
exportOnFirstUse('createDistributedRuntime', () => require('./distributed-runtime'));
exportOnFirstUse('ServiceInfrastructureModule', () => require('./service-infrastructure.module'));
exportOnFirstUse('startNestService', () => require('./start-nest-service'));
exportOnFirstUse('busLoggerFor', () => require('./bus-logger'));
exportOnFirstUse('CorrelatedEventBus', () => require('./correlated-event-bus'));
exportOnFirstUse('SettingsTable', () => require('./settings-table'));
exportOnFirstUse('BusEvent', () => require('./event-transport'));
exportOnFirstUse('BusEventContext', () => require('./event-transport'));
exportOnFirstUse('EventBusTransport', () => require('./event-transport'));
/* eslint-enable @typescript-eslint/no-require-imports */
