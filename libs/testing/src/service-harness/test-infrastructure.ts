import {
  InProcessEventBus,
  KafkaEventBus,
  NamespacedEventBus,
  silentEventBusLogger,
  type EventBus,
} from '@tollgate/events';
import { MemoryKvStore, RedisKvStore, type KvStore } from '@tollgate/kv';
import { createTestDatabaseFactory, OutboxMessage, type TestDatabase } from '@tollgate/persistence';
import type { ServiceRuntime } from '@tollgate/runtime';
import { requireEnv, START_INFRASTRUCTURE_HINT } from './require-env';
import { newRunId } from './run-id';

/**
 * The two infrastructures a service runs on: `embedded` (the Jest PGlite server with a schema per
 * database, the in-process bus, the memory store) and `real` (PostgreSQL, Kafka and Redis from the
 * environment).
 */
export type InfrastructureKind = 'embedded' | 'real';

/**
 * The infrastructures a service scenario runs on, chosen by TOLLGATE_TEST_INFRA (`real`, `embedded`
 * or `both`); unset, `real` when the real infrastructure's variables are set (as `npm test` sets
 * them) and `embedded` otherwise. A scenario proves the service's behaviour once: the adapters under
 * it (bus, store, database) have contract suites of their own that run on each implementation
 * (libs/events, libs/kv, libs/persistence), and the embedded runtime as a whole is exercised by the
 * embedded e2e and browser tiers.
 */
export function scenarioInfrastructures(
  env: Readonly<Record<string, string | undefined>>,
): readonly InfrastructureKind[] {
  const chosen = env['TOLLGATE_TEST_INFRA'] ?? '';
  if (chosen === 'both') return ['embedded', 'real'];
  if (chosen === 'embedded' || chosen === 'real') return [chosen];
  if (chosen !== '') throw new Error(`TOLLGATE_TEST_INFRA must be real, embedded or both (got "${chosen}")`);
  const realIsUp = ['DATABASE_URL', 'KAFKA_BROKERS', 'REDIS_URL'].every((name) => (env[name] ?? '') !== '');
  return realIsUp ? ['real'] : ['embedded'];
}

export const INFRASTRUCTURES: readonly InfrastructureKind[] = scenarioInfrastructures(process.env);

/**
 * `describe` for a scenario whose fault needs real servers (a database connection to cut, a broker to
 * lose): embedded infrastructure has neither (PGlite and the in-process bus live in the test process).
 * Jest marks it skipped when the run has only the embedded infrastructure (a laptop without
 * PostgreSQL, Redis and Kafka, or TOLLGATE_TEST_INFRA=embedded); `npm test` always has the real one.
 */
export function describeOnRealInfrastructure(name: string, scenario: () => void): void {
  // Jest's globals, looked up when called: this package is also built and loaded outside Jest (the
  // chaos suite, the bench), without Jest's types.
  type Describe = (name: string, scenario: () => void) => void;
  const { describe } = globalThis as unknown as { describe: Describe & { skip: Describe } };
  (INFRASTRUCTURES.includes('real') ? describe : describe.skip)(name, scenario);
}

/** Partitions of the topics the buses create; tests that reason about record order per partition need it. */
export const TOPIC_PARTITIONS = 3;

export interface TestInfrastructure {
  readonly kind: InfrastructureKind;
  /** What the service is started with; reused across restarts, closed by `close()`. */
  readonly runtime: ServiceRuntime;
  /** Unique per infrastructure: names, ids and consumer groups that cannot meet older data on Kafka. */
  readonly runId: string;
  close(): Promise<void>;
}

export interface TestInfrastructureWithDatabase extends TestInfrastructure {
  /** An empty database of its own: the service applies its migrations when it starts. */
  createDatabase(): Promise<TestDatabase>;
}

export interface InfrastructureOptions {
  /** False for a service that keeps no database: then no database server is needed either. */
  database?: boolean;
}

const EMBEDDED_DATABASE_HINT =
  'run the test through the Jest "integration" project, whose globalSetup starts PGlite';

export function openInfrastructure(
  kind: InfrastructureKind,
  clientId: string,
  options?: InfrastructureOptions & { database?: true },
): Promise<TestInfrastructureWithDatabase>;
export function openInfrastructure(
  kind: InfrastructureKind,
  clientId: string,
  options: InfrastructureOptions & { database: false },
): Promise<TestInfrastructure>;
export async function openInfrastructure(
  kind: InfrastructureKind,
  clientId: string,
  { database = true }: InfrastructureOptions = {},
): Promise<TestInfrastructure | TestInfrastructureWithDatabase> {
  const runId = newRunId();
  const databaseVariable = kind === 'embedded' ? 'TOLLGATE_TEST_PGLITE_URL' : 'DATABASE_URL';
  const env = requireEnv(
    [...(database ? [databaseVariable] : []), ...(kind === 'real' ? ['KAFKA_BROKERS', 'REDIS_URL'] : [])],
    kind === 'embedded' ? EMBEDDED_DATABASE_HINT : START_INFRASTRUCTURE_HINT,
  );
  const bus: EventBus =
    kind === 'embedded'
      ? new InProcessEventBus({ logger: silentEventBusLogger, defaultPartitions: TOPIC_PARTITIONS })
      : namespacedKafkaBus(env['KAFKA_BROKERS'], clientId, runId);
  const kv: KvStore = kind === 'embedded' ? new MemoryKvStore() : new RedisKvStore(env['REDIS_URL']);
  const infrastructure: TestInfrastructure = {
    kind,
    runId,
    runtime: { bus, kv, embedded: kind === 'embedded' },
    async close() {
      await bus.close();
      await kv.close();
    },
  };
  if (!database) return infrastructure;

  const databases = createTestDatabaseFactory({
    adminUrl: env[databaseVariable],
    // No migrations here: starting the service is what migrates its database.
    migrations: [],
    entities: [OutboxMessage],
  });
  return {
    ...infrastructure,
    createDatabase: () => databases.create(),
    async close() {
      await infrastructure.close();
      await databases.dispose();
    },
  };
}

/** A Kafka bus whose topics and consumer groups belong to this run alone (see NamespacedEventBus). */
function namespacedKafkaBus(brokers: string, clientId: string, runId: string): EventBus {
  const kafka = new KafkaEventBus({
    brokers: brokers.split(','),
    clientId: `${clientId}-${runId}`,
    logger: silentEventBusLogger,
    defaultPartitions: TOPIC_PARTITIONS,
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
  return new NamespacedEventBus(kafka, `t${runId}.`);
}
