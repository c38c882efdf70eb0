import { InProcessEventBus, silentEventBusLogger } from '@tollgate/events';
import { MemoryKvStore } from '@tollgate/kv';
import type { ServiceRuntime } from './service-runtime';

describe('ServiceInfrastructureModule', () => {
  const runtime: ServiceRuntime = {
    bus: new InProcessEventBus({ logger: silentEventBusLogger }),
    kv: new MemoryKvStore(),
    embedded: true,
  };
  let mikroOrmLoaded: boolean;

  beforeEach(() => {
    jest.resetModules();
    mikroOrmLoaded = false;
    jest.doMock('@mikro-orm/postgresql', () => {
      mikroOrmLoaded = true;
      return jest.requireActual('@mikro-orm/postgresql');
    });
  });
  afterAll(async () => {
    await runtime.bus.close();
    await runtime.kv.close();
  });

  it('does not load MikroORM for a service without a database (embedded mode main thread: gateway, relay)', async () => {
    const { ServiceInfrastructureModule } = await import('./service-infrastructure.module');
    const module = ServiceInfrastructureModule.forRoot({ runtime });
    expect(module.imports).toEqual([]);
    expect(mikroOrmLoaded).toBe(false);
  });

  it('loads the database module, with MikroORM, for a service with a database', async () => {
    const { ServiceInfrastructureModule } = await import('./service-infrastructure.module');
    const module = ServiceInfrastructureModule.forRoot({
      runtime,
      database: { url: 'postgres://unused', entities: [], migrations: [], outboxRelayEnabled: false },
    });
    const [database] = await Promise.all(module.imports ?? []);
    expect(mikroOrmLoaded).toBe(true);
    const { ServiceDatabaseModule } = await import('./service-database.module');
    expect(database).toMatchObject({ module: ServiceDatabaseModule, global: true });
  });
});
