export {
  startPgliteServer,
  startPgliteServers,
  type PgliteDatabase,
  type PgliteServer,
} from './pglite/pglite-server';
export { openDatabase, type Database } from './database/open-database';
export {
  buildOrmOptions,
  type DatabaseOptions,
  type EntityDefinition,
  type MigrationClass,
} from './database/orm-options';
export { schemaOf, withSchema, withDatabase, redactUrl } from './database/database-url';
export { isInfrastructureUnavailable, isUniqueViolation } from './database/database-errors';
export {
  PersistenceModule,
  PERSISTENCE_OPTIONS,
  type PersistenceModuleAsyncOptions,
} from './nest/persistence.module';
export { OutboxMessage } from './outbox/outbox-message.entity';
export { Migration20261122000000CreateOutboxMessages } from './outbox/outbox-messages.migration';
export { enqueueOutbox } from './outbox/enqueue-outbox';
export { outboxInsertSql, type OutboxInsertSql } from './outbox/outbox-insert-sql';
export { queryRows } from './database/query-rows';
export {
  auditRecordedEvent,
  auditRecorder,
  recordAudit,
  type AuditActor,
  type AuditDraft,
  type AuditRecorder,
} from './outbox/audit-event';
export {
  OutboxRelay,
  type OutboxRelayBackoff,
  type OutboxRelayOptions,
  type OutboxRelayLogger,
} from './outbox/outbox-relay';
export {
  createTestDatabaseFactory,
  type TestDatabase,
  type TestDatabaseFactory,
  type TestDatabaseFactoryOptions,
} from './test-database/test-database-factory';
export { ScenarioProcess, ScenarioProcessEnded } from './test-scenarios/scenario-process';
export { serveScenarios, type Scenarios } from './test-scenarios/scenario-child';
