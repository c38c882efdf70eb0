import { EntityManager } from '@mikro-orm/postgresql';
import {
  Global,
  Inject,
  Injectable,
  Module,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
  type OnModuleInit,
  type Provider,
} from '@nestjs/common';
import { ALL_TOPICS } from '@tollgate/contracts';
import { EVENT_BUS, type EventBus } from '@tollgate/events';
import { KV_STORE } from '@tollgate/kv';
import {
  Migration20261122000000CreateOutboxMessages,
  OutboxMessage,
  OutboxRelay,
  PersistenceModule,
  type EntityDefinition,
  type MigrationClass,
} from '@tollgate/persistence';
import { HealthRegistry, LOGGER, MetricsService } from '@tollgate/platform';
import type { Logger } from 'pino';
import { CorrelatedEventBus } from './correlated-event-bus';
import type { ServiceRuntime } from './service-runtime';

export interface ServiceDatabaseOptions {
  url: string;
  entities: readonly EntityDefinition[];
  /** The service's own migrations; the outbox table's migration is added first. */
  migrations: readonly MigrationClass[];
  /** Publish the outbox from this process. */
  outboxRelayEnabled: boolean;
}

export interface ServiceInfrastructureOptions {
  runtime: ServiceRuntime;
  database?: ServiceDatabaseOptions;
}

const OUTBOX_RELAY_ENABLED = Symbol('OUTBOX_RELAY_ENABLED');

/** Creates the platform's topics (compacted ones as such) before anything publishes or subscribes. */
@Injectable()
class TopicsBootstrap implements OnModuleInit {
  constructor(@Inject(EVENT_BUS) private readonly bus: EventBus) {}

  async onModuleInit(): Promise<void> {
    await this.bus.ensureTopics(ALL_TOPICS.map((t) => ({ name: t.name, compacted: t.compacted })));
  }
}

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
 * A service's infrastructure, the same in every mode: the event bus (EVENT_BUS), the key-value
 * store (KV_STORE) and, for services with a database, MikroORM with the migrations applied, the
 * transactional outbox and its relay, and a readiness check.
 */
@Global()
@Module({})
export class ServiceInfrastructureModule {
  static forRoot({ runtime, database }: ServiceInfrastructureOptions): DynamicModule {
    const providers: Provider[] = [
      { provide: EVENT_BUS, useValue: new CorrelatedEventBus(runtime.bus) },
      { provide: KV_STORE, useValue: runtime.kv },
      TopicsBootstrap,
    ];
    const exports: NonNullable<DynamicModule['exports']> = [EVENT_BUS, KV_STORE];
    const imports: DynamicModule[] = [];
    if (database) {
      imports.push(
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
      );
      providers.push(
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
            });
          },
          inject: [EntityManager, LOGGER, MetricsService],
        },
        OutboxRelayLifecycle,
        DatabaseReadiness,
      );
      exports.push(OutboxRelay);
    }
    return { module: ServiceInfrastructureModule, global: true, imports, providers, exports };
  }
}
