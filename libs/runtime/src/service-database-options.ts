import type { EntityDefinition, MigrationClass } from '@tollgate/persistence';

/** A service's own database, as ServiceInfrastructureModule is given it. */
export interface ServiceDatabaseOptions {
  url: string;
  entities: readonly EntityDefinition[];
  /** The service's own migrations; the outbox table's migration is added first. */
  migrations: readonly MigrationClass[];
  /** Publish the outbox from this process. */
  outboxRelayEnabled: boolean;
}
