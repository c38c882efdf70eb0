import type { OutgoingEvent } from '@tollgate/events';
import {
  Migration20261122000000CreateOutboxMessages,
  OutboxMessage,
  OutboxRelay,
  createTestDatabaseFactory,
  enqueueOutbox,
  openDatabase,
  type Database,
  type OutboxRelayOptions,
  type TestDatabaseFactory,
} from '../../src';
import { RecordingEventBus } from '../support/recording-event-bus';
import { requireEnv } from '../support/test-environment';

jest.setTimeout(30_000);

const MIGRATIONS = [Migration20261122000000CreateOutboxMessages];

interface Sent {
  sql: string;
  bindings: unknown[];
}

/**
 * What the relay sends per round: bound parameters and one text per statement, whatever the batch,
 * so a named statement (queryRows on an in-thread PGlite) is parsed once and keeps its plan.
 */
describe.each([
  ['PGlite', () => requireEnv('TOLLGATE_TEST_PGLITE_URL', 'the integration tier starts PGlite')],
  [
    'PostgreSQL',
    () =>
      requireEnv('DATABASE_URL', 'bash scripts/infra.sh up postgres; eval "$(bash scripts/infra.sh env)"'),
  ],
])("the outbox relay's statements on %s", (_name, adminUrl) => {
  let factory: TestDatabaseFactory;
  let orm: Database;

  beforeAll(async () => {
    factory = createTestDatabaseFactory({
      adminUrl: adminUrl(),
      migrations: MIGRATIONS,
      entities: [OutboxMessage],
    });
    const database = await factory.create();
    orm = await openDatabase({
      url: database.url,
      embedded: database.embedded,
      entities: [OutboxMessage],
      migrations: MIGRATIONS,
    });
  });

  afterAll(async () => {
    await orm?.close();
    await factory?.dispose();
  });

  const commit = (...ns: number[]): Promise<void> =>
    orm.em.fork().transactional((em) =>
      enqueueOutbox(
        em,
        ns.map((n): OutgoingEvent => ({ topic: 'statements', key: `k${n}`, value: { n }, headers: {} })),
      ),
    );

  /** Two rounds of different batches (one row, then three), then the lag report; what knex was sent. */
  async function rounds(
    options: Partial<OutboxRelayOptions>,
  ): Promise<{ sent: Sent[]; published: number[] }> {
    const bus = new RecordingEventBus();
    const relay = new OutboxRelay({
      em: orm.em,
      bus,
      logger: { warn: () => undefined },
      onLag: () => undefined,
      ...options,
    });
    const sent: Sent[] = [];
    const knex = orm.em.getKnex();
    const record = ({ sql, bindings }: Sent) => sent.push({ sql, bindings: bindings ?? [] });
    knex.on('query', record);
    try {
      await commit(1);
      expect(await relay.flushNow()).toBe(1);
      await commit(2, 3, 4);
      expect(await relay.flushNow()).toBe(3);
      await relay.reportLag();
    } finally {
      knex.off('query', record);
    }
    return {
      sent: sent.filter(({ sql }) => /outbox_messages/.test(sql) && !/^insert/.test(sql)),
      published: bus.published.map(({ value }) => (value as { n: number }).n),
    };
  }

  it('as the sole relay: the batch read and the marking each one text, the ids one array parameter', async () => {
    const { sent, published } = await rounds({ soleRelay: true, batchSize: 50 });

    expect(published).toEqual([1, 2, 3, 4]);
    const texts = [...new Set(sent.map(({ sql }) => sql))];
    // Read and mark, read and mark, the lag.
    expect(sent).toHaveLength(5);
    expect(texts).toHaveLength(3);
    const marks = sent.filter(({ sql }) => /^update/.test(sql));
    expect(marks.map(({ bindings }) => bindings)).toEqual([[['1']], [['2', '3', '4']]]);
    for (const { sql } of sent) expect(sql).not.toMatch(/\b50\b|'\{/);
    expect(sent.find(({ sql }) => /^\s*select id/.test(sql))?.bindings).toEqual([50]);
  });

  it('as one of several relays: the locking statement one text, its batch size bound', async () => {
    const { sent, published } = await rounds({ batchSize: 50 });

    expect(published).toEqual([1, 2, 3, 4]);
    expect([...new Set(sent.map(({ sql }) => sql))]).toHaveLength(2);
    const locking = sent.filter(({ sql }) => /for update skip locked/.test(sql));
    expect(locking).toHaveLength(2);
    expect(locking.map(({ bindings }) => bindings)).toEqual([[50], [50]]);
  });
});
