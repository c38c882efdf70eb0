import {
  Inject,
  Injectable,
  Module,
  type DynamicModule,
  type InjectionToken,
  type MiddlewareConsumer,
  type ModuleMetadata,
  type NestModule,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { EntityManager as CoreEntityManager, MikroORM as CoreMikroORM } from '@mikro-orm/core';
import { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { openDatabase, type Database } from '../database/open-database';
import type { DatabaseOptions } from '../database/orm-options';
import { RequestContextMiddleware } from './request-context.middleware';

export const PERSISTENCE_OPTIONS = Symbol('PERSISTENCE_OPTIONS');

export interface PersistenceModuleAsyncOptions {
  imports?: ModuleMetadata['imports'];
  inject?: InjectionToken[];
  useFactory: (...dependencies: never[]) => DatabaseOptions | Promise<DatabaseOptions>;
}

/** Closes the ORM after the other modules' shutdown hooks (an outbox relay stops in onModuleDestroy). */
@Injectable()
class DatabaseShutdown implements OnApplicationShutdown {
  constructor(@Inject(CoreMikroORM) private readonly orm: Database) {}

  async onApplicationShutdown(): Promise<void> {
    await this.orm.close();
  }
}

/**
 * Opens the service's database (migrations applied before anything can inject it) and provides
 * `MikroORM` and `EntityManager` from both `@mikro-orm/core` and `@mikro-orm/postgresql`, globally.
 * The EntityManager is the root one: inside HTTP requests it resolves to the request's own
 * context; elsewhere (event consumers, jobs) use `em.fork()` or `em.transactional()`.
 */
@Module({})
export class PersistenceModule implements NestModule {
  static forRoot(options: DatabaseOptions): DynamicModule {
    return PersistenceModule.forRootAsync({ useFactory: () => options });
  }

  static forRootAsync(options: PersistenceModuleAsyncOptions): DynamicModule {
    return {
      module: PersistenceModule,
      global: true,
      imports: options.imports ?? [],
      providers: [
        { provide: PERSISTENCE_OPTIONS, useFactory: options.useFactory, inject: options.inject ?? [] },
        { provide: CoreMikroORM, useFactory: openDatabase, inject: [PERSISTENCE_OPTIONS] },
        { provide: MikroORM, useExisting: CoreMikroORM },
        { provide: CoreEntityManager, useFactory: (orm: Database) => orm.em, inject: [CoreMikroORM] },
        { provide: EntityManager, useExisting: CoreEntityManager },
        DatabaseShutdown,
        RequestContextMiddleware,
      ],
      exports: [CoreMikroORM, MikroORM, CoreEntityManager, EntityManager],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(RequestContextMiddleware).forRoutes('{*all}');
  }
}
