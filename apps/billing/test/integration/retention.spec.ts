import { randomUUID } from 'node:crypto';
import { SETTING_KEYS, type LogItem, type Page } from '@tollgate/contracts';
import type { TestDatabase } from '@tollgate/persistence';
import { eventually, INFRASTRUCTURES, randomUserId, withDatabase } from '@tollgate/testing';
import { BillingHarness, type Billing, type Caller } from './billing-harness';

jest.setTimeout(90_000);

const DAY = 86_400;

describe.each(INFRASTRUCTURES)('billing usage log retention on %s infrastructure', (kind) => {
  const harness = new BillingHarness(kind, 'billing-retention-it');
  const now = Math.floor(Date.now() / 1000);

  /** Runs billing with `retentionDays` while `whileRunning` acts on it. */
  const runBilling = <T>(
    database: TestDatabase,
    retentionDays: number,
    whileRunning: (billing: Billing) => Promise<T>,
  ): Promise<T> =>
    harness.run(database, whileRunning, {
      env: {
        LOG_RETENTION_DAYS: String(retentionDays),
        LOG_RETENTION_INTERVAL_SECONDS: '1',
        LOG_RETENTION_BATCH_SIZE: '2',
      },
    });

  /** Usage rows of `userId` created `daysAgo` days ago each, with their daily statistics, written while billing is stopped. */
  const seedUsage = (database: TestDatabase, userId: number, daysAgo: readonly number[]) =>
    withDatabase(database, async (query) => {
      await query('insert into accounts (user_id) values (?)', [userId]);
      for (const days of daysAgo) {
        await query(
          `insert into usage_logs (event_id, created_at, user_id, token_id, token_name, channel_id, model,
             upstream_model, prompt_tokens, completion_tokens, cached_tokens, quota, latency_ms, ttft_ms,
             is_stream, status, "group", request_id)
           values (?, to_timestamp(?), ?, 1, 'ci', 1, 'gpt-4o', 'gpt-4o', 10, 5, 0, 100, 300, null, false,
             'success', 'default', ?)`,
          [randomUUID(), now - days * DAY, userId, `req-${days}`],
        );
      }
      await query(
        `insert into usage_daily_stats (user_id, day, model, token_id, requests, prompt_tokens,
           completion_tokens, cached_tokens, quota)
         values (?, '2020-01-01', 'gpt-4o', 1, ?, 10, 5, 0, 100)`,
        [userId, daysAgo.length],
      );
    });

  const requestIdsOf = async (billing: Billing, userId: number): Promise<string[]> => {
    const range = `start_timestamp=${now - 30 * DAY}&end_timestamp=${now}`;
    const page = await billing
      .asAdmin()
      .get<{ data?: Page<LogItem> }>(`/api/log/?user_id=${userId}&${range}`);
    return (page.body.data?.items ?? []).map((line) => line.request_id);
  };

  beforeAll(() => harness.open());
  afterAll(() => harness.close());

  it('deletes usage rows older than the retention in batches, and keeps newer rows and the daily statistics', async () => {
    const database = await harness.migratedDatabase();
    const userId = randomUserId();
    await seedUsage(database, userId, [20, 19, 18, 15, 13, 1]);

    const remaining = await runBilling(database, 14, (billing) =>
      eventually('the retention job to delete the old rows', async () => {
        const ids = await requestIdsOf(billing, userId);
        return ids.length === 2 ? ids : undefined;
      }),
    );

    expect(remaining).toEqual(['req-1', 'req-13']);
    const statistics = await withDatabase(database, (query) =>
      query<{ requests: string }>('select requests from usage_daily_stats where user_id = ?', [userId]),
    );
    expect(statistics).toEqual([{ requests: '6' }]);
  });

  it('lets an admin purge the log before a moment by hand, and nobody else', async () => {
    const database = await harness.migratedDatabase();
    const userId = randomUserId();
    await seedUsage(database, userId, [5, 4, 1]);

    await runBilling(database, 0, async (billing) => {
      const purge = (target: number, caller: Caller) =>
        caller.delete<{ data?: { deleted: number } }>(`/api/log/?target_timestamp=${target}`);
      expect((await purge(now - 3 * DAY, billing.asUser(randomUserId()))).status).toBe(403);
      expect((await purge(now + DAY, billing.asAdmin())).status).toBe(400);
      const purged = await purge(now - 3 * DAY, billing.asAdmin());
      expect(purged.status).toBe(200);
      expect(purged.body.data?.deleted).toBeGreaterThanOrEqual(2);
      expect(await requestIdsOf(billing, userId)).toEqual(['req-1']);
    });
  });

  it('starts deleting old rows once an operator sets LogRetentionDays, with the configuration keeping everything', async () => {
    const database = await harness.migratedDatabase();
    const userId = randomUserId();
    await seedUsage(database, userId, [12, 8, 2]);
    const setDays = (value: string) => harness.setOption(SETTING_KEYS.logRetentionDays, value);

    const remaining = await runBilling(database, 0, async (billing) => {
      expect(await requestIdsOf(billing, userId)).toEqual(['req-2', 'req-8', 'req-12']);
      await setDays('5');
      return eventually('the operators’ retention to delete the rows older than 5 days', async () => {
        const ids = await requestIdsOf(billing, userId);
        return ids.length === 1 ? ids : undefined;
      });
    });
    await setDays('');

    expect(remaining).toEqual(['req-2']);
  });
});
