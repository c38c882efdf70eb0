import {
  Global,
  Inject,
  Injectable,
  Module,
  type DynamicModule,
  type OnModuleInit,
  type Provider,
} from '@nestjs/common';
import { ALL_TOPICS } from '@tollgate/contracts';
import { EVENT_BUS, type EventBus } from '@tollgate/events';
import { KV_STORE } from '@tollgate/kv';
import { CorrelatedEventBus } from './correlated-event-bus';
import type { ServiceDatabaseOptions } from './service-database-options';
import type { ServiceRuntime } from './service-runtime';

export interface ServiceInfrastructureOptions {
  runtime: ServiceRuntime;
  database?: ServiceDatabaseOptions;
}

/** Creates the platform's topics (compacted ones as such) before anything publishes or subscribes. */
@Injectable()
class TopicsBootstrap implements OnModuleInit {
  constructor(@Inject(EVENT_BUS) private readonly bus: EventBus) {}

  async onModuleInit(): Promise<void> {
    await this.bus.ensureTopics(ALL_TOPICS.map((t) => ({ name: t.name, compacted: t.compacted })));
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
    const imports: Promise<DynamicModule>[] = [];
    if (database) {
      // Loaded here only, so that a thread whose services have no database never loads MikroORM. The
      // module is global: its OutboxRelay is every module's, as when it was exported from this one.
      imports.push(
        import('./service-database.module').then((m) => m.ServiceDatabaseModule.forRoot(runtime, database)),
      );
    }
    return { module: ServiceInfrastructureModule, global: true, imports, providers, exports };
  }
}
