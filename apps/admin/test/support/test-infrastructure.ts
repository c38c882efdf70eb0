import { randomBytes } from 'node:crypto';
import { InProcessEventBus, KafkaEventBus, silentEventBusLogger, type EventBus } from '@tollgate/events';
import { MemoryKvStore, RedisKvStore, type KvStore } from '@tollgate/kv';
import { createTestDatabaseFactory, OutboxMessage, type TestDatabase } from '@tollgate/persistence';
import type { ServiceRuntime } from '@tollgate/runtime';

/**
 * The two infrastructures a service runs on, for integration tests that run every scenario on
 * both: `embedded` (the Jest PGlite server with a schema per database, the in-process bus, the
 * memory store) and `real` (PostgreSQL, Kafka and Redis from the environment).
 */
export type InfrastructureKind = 'embedded' | 'real';
export const INFRASTRUCTURES: readonly InfrastructureKind[] = ['embedded', 'real'];

export interface TestInfrastructure {
  readonly kind: InfrastructureKind;
  /** What the service is started with; reused across restarts, closed by `close()`. */
  readonly runtime: ServiceRuntime;
  /** Unique per infrastructure: names, ids and consumer groups that cannot meet older data on Kafka. */
  readonly runId: string;
  /** An empty database of its own: the service applies its migrations when it starts. */
  createDatabase(): Promise<TestDatabase>;
  close(): Promise<void>;
}

const HOW_TO_START =
  'start the infrastructure with `bash scripts/infra.sh up` and load it with `eval "$(bash scripts/infra.sh env)"`';

function requireEnv(names: readonly string[], hint: string): Record<string, string> {
  const missing = names.filter((name) => !process.env[name]);
  if (missing.length > 0)
    throw new Error(`${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not set: ${hint}`);
  return Object.fromEntries(names.map((name) => [name, process.env[name] as string]));
}

export async function openInfrastructure(
  kind: InfrastructureKind,
  clientId: string,
): Promise<TestInfrastructure> {
  const runId = randomBytes(4).toString('hex');
  const env =
    kind === 'embedded'
      ? requireEnv(
          ['TOLLGATE_TEST_PGLITE_URL'],
          'run the test through the Jest "integration" project, whose globalSetup starts PGlite',
        )
      : requireEnv(['DATABASE_URL', 'KAFKA_BROKERS', 'REDIS_URL'], HOW_TO_START);
  const databases = createTestDatabaseFactory({
    adminUrl: kind === 'embedded' ? env['TOLLGATE_TEST_PGLITE_URL']! : env['DATABASE_URL']!,
    // No migrations here: starting the service is what migrates its database.
    migrations: [],
    entities: [OutboxMessage],
  });
  const bus: EventBus =
    kind === 'embedded'
      ? new InProcessEventBus({ logger: silentEventBusLogger })
      : new KafkaEventBus({
          brokers: env['KAFKA_BROKERS']!.split(','),
          clientId: `${clientId}-${runId}`,
          logger: silentEventBusLogger,
          lingerMs: 1,
          retry: { initialRetryTime: 100, retries: 5 },
          // Short timings so joining, leaving and stopping a consumer take well under a second.
          consumer: {
            sessionTimeout: 6000,
            heartbeatInterval: 300,
            rebalanceTimeout: 3000,
            maxWaitTimeInMs: 100,
          },
        });
  const kv: KvStore = kind === 'embedded' ? new MemoryKvStore() : new RedisKvStore(env['REDIS_URL']!);
  return {
    kind,
    runId,
    runtime: { bus, kv, embedded: kind === 'embedded' },
    createDatabase: () => databases.create(),
    async close() {
      await bus.close();
      await kv.close();
      await databases.dispose();
    },
  };
}
