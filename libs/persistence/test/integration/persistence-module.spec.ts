import { Controller, Get, Inject, Module, Param } from '@nestjs/common';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { MikroORM } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import {
  Migration20261122000000CreateOutboxMessages,
  OutboxMessage,
  PersistenceModule,
  createTestDatabaseFactory,
  type TestDatabase,
  type TestDatabaseFactory,
} from '../../src';
import { CounterSchema, Migration20261122000100CreateCounters } from '../support/counter.fixture';
import { requireEnv } from '../support/test-environment';

const ENTITIES = [OutboxMessage, CounterSchema];
const MIGRATIONS = [Migration20261122000000CreateOutboxMessages, Migration20261122000100CreateCounters];

@Controller('counters')
class CountersController {
  constructor(@Inject(EntityManager) private readonly em: EntityManager) {}

  // Uses the root EntityManager directly: only works inside the request context the module sets up.
  @Get(':name')
  async read(@Param('name') name: string): Promise<{ value: number | null }> {
    const counter = await this.em.findOne(CounterSchema, { name });
    return { value: counter?.value ?? null };
  }
}

// Building a template database or waiting for PGlite's single connection can take seconds on a busy machine.
jest.setTimeout(30_000);

describe('PersistenceModule', () => {
  let factory: TestDatabaseFactory;
  let database: TestDatabase;

  beforeAll(async () => {
    const adminUrl = requireEnv(
      'TOLLGATE_TEST_PGLITE_URL',
      'the integration tier starts PGlite in its global setup',
    );
    factory = createTestDatabaseFactory({ adminUrl, migrations: MIGRATIONS, entities: ENTITIES });
    database = await factory.create();
  });

  afterAll(async () => {
    await factory?.dispose();
  });

  it('opens the migrated database, gives each HTTP request its own context, and closes it on shutdown', async () => {
    @Module({
      imports: [
        PersistenceModule.forRootAsync({
          useFactory: () => ({
            url: database.url,
            embedded: database.embedded,
            entities: ENTITIES,
            migrations: MIGRATIONS,
          }),
        }),
      ],
      controllers: [CountersController],
    })
    class ServiceModule {}

    const moduleRef = await Test.createTestingModule({ imports: [ServiceModule] }).compile();
    const app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter());
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
    const orm = app.get(MikroORM);
    expect(app.get(EntityManager)).toBe(orm.em);

    await orm.em.fork().insert(CounterSchema, { name: 'visits', value: 3 });
    const response = await app.inject({ method: 'GET', url: '/counters/visits' });

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ value: 3 });

    await app.close();
    expect(await orm.isConnected()).toBe(false);
  });
});
