import { EntityManager } from '@mikro-orm/postgresql';
import {
  Global,
  Inject,
  Injectable,
  Module,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import {
  Migration20261122000000CreateOutboxMessages,
  OutboxMessage,
  OutboxRelay,
  PersistenceModule,
} from '@tollgate/persistence';
import { HealthRegistry, LOGGER, MetricsService } from '@tollgate/platform';
import type { Logger } from 'pino';
import type { ServiceDatabaseOptions } from './service-database-options';
import type { ServiceRuntime } from './service-runtime';

const OUTBOX_RELAY_ENABLED = Symbol('OUTBOX_RELAY_ENABLED');

/** Starts the outbox publisher once the app is up and stops it before the database closes. */
@Injectable()
class OutboxRelayLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(
    private readonly relay: OutboxRelay,
    @Inject(OUTBOX_RELAY_ENABLED) private readonly enabled: boolean,
  ) {}

  onApplicationBootstrap(): void {
    if (this.enabled) this.relay.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.relay.stop();
  }
}

/** The database answers a trivial query: the service may take traffic. */
@Injectable()
class DatabaseReadiness {
  constructor(health: HealthRegistry, em: EntityManager) {
    health.registerReadinessCheck('database', () => em.getConnection().execute('select 1'));
  }
}

/**
 * The database half of ServiceInfrastructureModule: MikroORM with the migrations applied, the
 * transactional outbox and its relay, and a readiness check. A file of its own, imported only by a
 * service that has a database, so that MikroORM is not loaded by a thread that runs none (embedded
 * mode's main thread, gateway and relay).
 */
@Global()
@Module({})
export class ServiceDatabaseModule {
  static forRoot(runtime: ServiceRuntime, database: ServiceDatabaseOptions): DynamicModule {
    return {
      module: ServiceDatabaseModule,
      global: true,
      imports: [
        PersistenceModule.forRootAsync({
          useFactory: (logger: Logger) => ({
            url: database.url,
            embedded: runtime.embedded,
            entities: [OutboxMessage, ...database.entities],
            migrations: [Migration20261122000000CreateOutboxMessages, ...database.migrations],
            logger,
          }),
          inject: [LOGGER],
        }),
      ],
      providers: [
        { provide: OUTBOX_RELAY_ENABLED, useValue: database.outboxRelayEnabled },
        {
          provide: OutboxRelay,
          useFactory: (em: EntityManager, logger: Logger, metrics: MetricsService) => {
            const lag = metrics.gauge('outboxLag');
            return new OutboxRelay({
              em,
              bus: runtime.bus,
              logger: { warn: (details, message) => logger.warn(details, message) },
              onLag: (topic, ageSeconds) => lag.set({ topic }, ageSeconds),
              // Embedded mode: one process per data directory (its lock), so one relay per database.
              soleRelay: runtime.embedded,
            });
          },
          inject: [EntityManager, LOGGER, MetricsService],
        },
        OutboxRelayLifecycle,
        DatabaseReadiness,
      ],
      exports: [OutboxRelay],
    };
  }
}
