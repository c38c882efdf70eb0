import { randomBytes, randomUUID } from 'node:crypto';
import { Role, SETTING_KEYS, TOPICS, type LogItem, type Page } from '@tollgate/contracts';
import type { TestDatabase } from '@tollgate/persistence';
import { INTERNAL_IDENTITY_HEADER, signInternalToken } from '@tollgate/platform';
import {
  eventually,
  getJson,
  INFRASTRUCTURES,
  openInfrastructure,
  randomUserId,
  waitUntilReady,
  withDatabase,
  type TestInfrastructureWithDatabase,
} from '@tollgate/testing';
import { startBilling } from '../../src';

jest.setTimeout(90_000);

const DAY = 86_400;

describe.each(INFRASTRUCTURES)('billing usage log retention on %s infrastructure', (kind) => {
  let infra: TestInfrastructureWithDatabase;
  const secret = randomBytes(32).toString('hex');
  const now = Math.floor(Date.now() / 1000);

  const asRole = async (role: Role) => ({
    [INTERNAL_IDENTITY_HEADER]: await signInternalToken(
      { userId: randomUserId(), role, via: 'session' },
      secret,
    ),
  });

  /** Runs billing with `retentionDays` while `whileRunning` acts on its URL. */
  const runBilling = async <T>(
    database: TestDatabase,
    retentionDays: number,
    whileRunning: (url: string) => Promise<T>,
  ): Promise<T> => {
    const billing = await startBilling(
      {
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'error',
        DATABASE_URL: database.url,
        TOLLGATE_INTERNAL_TOKEN_SECRET: secret,
        LOG_RETENTION_DAYS: String(retentionDays),
        LOG_RETENTION_INTERVAL_SECONDS: '1',
        LOG_RETENTION_BATCH_SIZE: '2',
      },
      infra.runtime,
    );
    try {
      await waitUntilReady(billing.url);
      return await whileRunning(billing.url);
    } finally {
      await billing.close();
    }
  };

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

  const requestIdsOf = async (url: string, userId: number): Promise<string[]> => {
    const range = `start_timestamp=${now - 30 * DAY}&end_timestamp=${now}`;
    const page = await getJson<{ data?: Page<LogItem> }>(
      `${url}/api/log/?user_id=${userId}&${range}`,
      await asRole(Role.Admin),
    );
    return (page.body.data?.items ?? []).map((line) => line.request_id);
  };

  beforeAll(async () => {
    infra = await openInfrastructure(kind, 'billing-retention-it');
  });

  afterAll(async () => {
    await infra?.close();
  });

  it('deletes usage rows older than the retention in batches, and keeps newer rows and the daily statistics', async () => {
    const database = await infra.createDatabase();
    await runBilling(database, 0, async () => undefined); // migrates
    const userId = randomUserId();
    await seedUsage(database, userId, [20, 19, 18, 15, 13, 1]);

    const remaining = await runBilling(database, 14, (url) =>
      eventually('the retention job to delete the old rows', async () => {
        const ids = await requestIdsOf(url, userId);
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
    const database = await infra.createDatabase();
    await runBilling(database, 0, async () => undefined);
    const userId = randomUserId();
    await seedUsage(database, userId, [5, 4, 1]);

    await runBilling(database, 0, async (url) => {
      const purge = async (target: number, role: Role) => {
        const response = await fetch(`${url}/api/log/?target_timestamp=${target}`, {
          method: 'DELETE',
          headers: await asRole(role),
        });
        return { status: response.status, body: (await response.json()) as { data?: { deleted: number } } };
      };
      expect((await purge(now - 3 * DAY, Role.User)).status).toBe(403);
      expect((await purge(now + DAY, Role.Admin)).status).toBe(400);
      const purged = await purge(now - 3 * DAY, Role.Admin);
      expect(purged.status).toBe(200);
      expect(purged.body.data?.deleted).toBeGreaterThanOrEqual(2);
      expect(await requestIdsOf(url, userId)).toEqual(['req-1']);
    });
  });

  it('starts deleting old rows once an operator sets LogRetentionDays, with the configuration keeping everything', async () => {
    const database = await infra.createDatabase();
    await runBilling(database, 0, async () => undefined);
    const userId = randomUserId();
    await seedUsage(database, userId, [12, 8, 2]);
    const setDays = (value: string) =>
      infra.runtime.bus.publish([
        {
          topic: TOPICS.catalogOption.name,
          key: SETTING_KEYS.logRetentionDays,
          value: {
            v: 1,
            key: SETTING_KEYS.logRetentionDays,
            value,
            updated_at: Math.floor(Date.now() / 1000),
          },
        },
      ]);

    const remaining = await runBilling(database, 0, async (url) => {
      expect(await requestIdsOf(url, userId)).toEqual(['req-2', 'req-8', 'req-12']);
      await setDays('5');
      return eventually('the operators’ retention to delete the rows older than 5 days', async () => {
        const ids = await requestIdsOf(url, userId);
        return ids.length === 1 ? ids : undefined;
      });
    });
    await setDays('');

    expect(remaining).toEqual(['req-2']);
  });
});
