import { TOPICS, type UsageRecorded } from '@tollgate/contracts';
import { OutboxMessage, openDatabase, type Database, type TestDatabase } from '@tollgate/persistence';
import { runWithRequestContext } from '@tollgate/platform';
import { INFRASTRUCTURES, randomUserId } from '@tollgate/testing';
import { randomUUID } from 'node:crypto';
import { Account } from '../../src/accounts/account.entity';
import { billingBalanceEvent } from '../../src/accounts/balance-events';
import { DailyStatCacheWritesMigration } from '../../src/migrations/20270108-daily-stat-cache-writes.migration';
import { UsageSettlementRepository } from '../../src/usage/usage-settlement.repository';
import { BillingHarness } from './billing-harness';
import { aUsageEvent } from './builders';

jest.setTimeout(90_000);

interface OutboxRow {
  topic: string;
  key: string;
  value: unknown;
  headers: Record<string, string>;
}

/** The settlement repository alone on a migrated database, and what it leaves in the tables. */
describe.each(INFRASTRUCTURES)('usage settlement statement on %s infrastructure', (kind) => {
  const harness = new BillingHarness(kind, 'billing-settle-statement-it');
  let database: TestDatabase;
  let orm: Database;
  let repository: UsageSettlementRepository;
  /** Every statement sent to the database (BEGIN and COMMIT included), in order. */
  const statements: string[] = [];

  beforeAll(async () => {
    await harness.open();
    database = await harness.migratedDatabase();
    orm = await openDatabase({
      url: database.url,
      embedded: database.embedded,
      entities: [OutboxMessage, Account],
      migrations: [],
    });
    orm.em.getKnex().on('query', (query: { sql: string }) => statements.push(query.sql));
    repository = new UsageSettlementRepository(orm.em);
  });
  afterAll(async () => {
    await orm?.close(true);
    await harness.close();
  });

  const sql = <T>(text: string, params: unknown[] = []): Promise<T[]> =>
    orm.em.getConnection().execute<T[]>(text, params);
  const outbox = async (after: number): Promise<(OutboxRow & { id: string })[]> =>
    sql('select id::text as id, topic, key, value, headers from outbox_messages where id > ? order by id', [
      after,
    ]);
  const lastOutboxId = async (): Promise<number> =>
    Number((await sql<{ id: string | null }>('select max(id)::text as id from outbox_messages'))[0]?.id ?? 0);
  const account = async (userId: number): Promise<Account> =>
    orm.em.fork().findOneOrFail(Account, { userId });

  it('settles a batch of many users in one statement, one billing.balance each in user order, equal to billingBalanceEvent of the account as stored', async () => {
    const users = Array.from({ length: 5 }, () => randomUserId()).sort((a, b) => b - a);
    const events: UsageRecorded[] = users.flatMap((userId, i) =>
      Array.from({ length: i + 1 }, () => aUsageEvent(userId, { quota: 100 * (i + 1) })),
    );
    const before = await lastOutboxId();
    statements.length = 0;

    const settled = await runWithRequestContext({ requestId: 'r-46', correlationId: 'c-46' }, () =>
      repository.settle(events),
    );

    expect(statements).toHaveLength(1);
    expect(settled).toMatchObject({ settled: events.length, accounts: users.length });
    const rows = await outbox(before);
    const ascending = [...users].sort((a, b) => a - b);
    expect(rows.map((row) => row.key)).toEqual(ascending.map(String));
    for (const row of rows) {
      const expected = billingBalanceEvent(await account(Number(row.key)));
      expect({ topic: row.topic, key: row.key, value: row.value }).toEqual({
        topic: TOPICS.billingBalance.name,
        key: expected.key,
        value: expected.value,
      });
      expect(row.headers).toEqual({ 'x-request-id': 'r-46', 'x-correlation-id': 'c-46' });
    }
  });

  it('changes nothing for a batch delivered again, publishing no balance', async () => {
    const userId = randomUserId();
    const events = [aUsageEvent(userId, { quota: 300 }), aUsageEvent(userId, { quota: 200 })];
    await repository.settle(events);
    const stored = await account(userId);
    const before = await lastOutboxId();

    expect(await repository.settle(events)).toEqual({ settled: 0, chargedByModel: new Map(), accounts: 0 });
    expect(await outbox(before)).toEqual([]);
    expect(await account(userId)).toEqual(stored);
  });

  it('writes each usage-log row to five indexes, its event id the primary key (no index on id alone), its id still from the sequence', async () => {
    const indexes = await sql<{ name: string; columns: string; primary: boolean }>(
      `select c.relname as name, i.indisprimary as primary,
         (select string_agg(a.attname, ',' order by k.n) from unnest(i.indkey) with ordinality k(attnum, n)
            join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum) as columns
       from pg_index i join pg_class c on c.oid = i.indexrelid
       where i.indrelid = 'usage_logs'::regclass and i.indpred is null order by c.relname`,
    );
    expect(indexes.filter((index) => index.primary).map((index) => index.columns)).toEqual(['event_id']);
    expect(indexes.map((index) => index.columns).sort()).toEqual(
      ['created_at', 'event_id', 'user_id,created_at', 'user_id,request_id'].sort(),
    );

    const userId = randomUserId();
    const events = [aUsageEvent(userId, { quota: 3 }), aUsageEvent(userId, { quota: 4 })];
    await repository.settle(events);
    await repository.settle(events);
    const rows = await sql<{ id: string }>(
      'select id::text as id from usage_logs where user_id = ? order by id',
      [userId],
    );
    expect(rows).toHaveLength(2);
    expect(Number(rows[1]!.id)).toBeGreaterThan(Number(rows[0]!.id));
  });

  it('leaves room for HOT updates on the pages of the rows it updates once per user (accounts, daily rollups)', async () => {
    const tables = await sql<{ name: string; options: string[] | null }>(
      `select relname as name, reloptions as options from pg_class
       where relname in ('accounts', 'usage_daily_stats') and relkind = 'r' order by relname`,
    );
    expect(tables).toEqual([
      { name: 'accounts', options: ['fillfactor=50'] },
      { name: 'usage_daily_stats', options: ['fillfactor=50'] },
    ]);
  });

  it('writes one usage ledger entry per user of a batch, the sum of its events, keyed by its lowest event id', async () => {
    const [first, second] = [randomUserId(), randomUserId()];
    const events = [
      aUsageEvent(first, { quota: 300 }),
      aUsageEvent(second, { quota: 11 }),
      aUsageEvent(first, { quota: 200 }),
      aUsageEvent(first, { quota: 7 }),
    ];
    const lowestOf = (userId: number) =>
      events
        .filter((event) => event.user_id === userId)
        .map((event) => event.event_id)
        .sort()[0];

    await repository.settle(events);

    expect(
      await sql(
        `select user_id, amount::integer as amount, idempotency_key, note from ledger_entries
         where user_id in (?, ?) order by amount`,
        [first, second],
      ),
    ).toEqual([
      { user_id: first, amount: -507, idempotency_key: `usage:${lowestOf(first)}`, note: 'requests: 3' },
      { user_id: second, amount: -11, idempotency_key: `usage:${lowestOf(second)}`, note: 'requests: 1' },
    ]);
    expect(await account(first)).toMatchObject({ quota: -507, usedQuota: 507, requestCount: 3 });
  });

  it("undoes the whole batch when a user's usage entry would take a key written before (an event with its ledger entry but no usage-log row)", async () => {
    const userId = randomUserId();
    const [lower, higher] = [randomUUID(), randomUUID()].sort();
    const orphan = aUsageEvent(userId, { quota: 700, event_id: lower! });
    await repository.settle([aUsageEvent(userId, { quota: 1 })]);
    await sql(
      `insert into ledger_entries (user_id, kind, amount, idempotency_key, note) values (?, 'usage', -700, ?, 'x')`,
      [userId, `usage:${orphan.event_id}`],
    );
    const stored = await account(userId);
    const before = await lastOutboxId();

    await expect(
      repository.settle([aUsageEvent(userId, { quota: 5, event_id: higher! }), orphan]),
    ).rejects.toThrow(/usage log and ledger disagree/);
    expect(await outbox(before)).toEqual([]);
    expect(await account(userId)).toEqual(stored);
    expect(await sql('select 1 from usage_logs where event_id = ?', [orphan.event_id])).toEqual([]);
  });

  it("migration 20270108 fills in the daily rollup's cache writes from the usage log, 5-minute and hour-long apart", async () => {
    const [writer, other] = [randomUserId(), randomUserId()];
    const createdAt = Math.floor(Date.now() / 1000);
    await repository.settle([
      aUsageEvent(writer, {
        created_at: createdAt,
        prompt_tokens: 4_000,
        cache_write_tokens: 2_000,
        cache_write_1h_tokens: 1_500,
      }),
      aUsageEvent(writer, { created_at: createdAt, cache_write_tokens: 700 }),
      aUsageEvent(other, { created_at: createdAt }),
    ]);
    const migration = new DailyStatCacheWritesMigration(orm.em.getDriver(), orm.config);
    const run = async (step: () => Promise<void>) => {
      migration.reset();
      await step();
      for (const query of migration.getQueries()) await sql(String(query));
    };
    // The rollup as it was before the migration: no columns for the writes.
    await run(() => migration.down());

    await run(() => migration.up());

    expect(
      await sql(
        `select user_id, requests::int, cache_write_5m_tokens::int as five_minutes,
           cache_write_1h_tokens::int as hour
         from usage_daily_stats where user_id in (?, ?) order by user_id = ? desc`,
        [writer, other, writer],
      ),
    ).toEqual([
      { user_id: writer, requests: 2, five_minutes: 500 + 700, hour: 1_500 },
      { user_id: other, requests: 1, five_minutes: 0, hour: 0 },
    ]);
  });
});
