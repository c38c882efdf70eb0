import { Role, type AdminOverview, type DailyModelUsage, type UsageRecorded } from '@tollgate/contracts';
import { eventually, INFRASTRUCTURES, randomUserId, type JsonResponse } from '@tollgate/testing';
import { BillingHarness, type Billing } from './billing-harness';
import { aUsageEvent } from './builders';

jest.setTimeout(90_000);

const at = (iso: string) => Date.parse(iso) / 1000;
/** Days of a random past week per run, so a shared broker's older events cannot fall on them. */
const base = Date.parse('2021-01-04T00:00:00Z') + Math.floor(Math.random() * 1500) * 86_400_000;
const day = (n: number) => new Date(base + n * 86_400_000).toISOString().slice(0, 10);
type Statistics = JsonResponse<{ success: boolean; message: string; data?: DailyModelUsage[] }>;

/** A call of 100 prompt and 10 completion tokens at `createdAt`, none of them from the prompt cache. */
const aUsageEventAt = (userId: number, createdAt: number, overrides: Partial<UsageRecorded> = {}) =>
  aUsageEvent(userId, {
    created_at: createdAt,
    prompt_tokens: 100,
    completion_tokens: 10,
    cached_tokens: 0,
    ...overrides,
  });

describe.each(INFRASTRUCTURES)('billing statistics on %s infrastructure', (kind) => {
  const harness = new BillingHarness(kind, 'billing-statistics-it');
  let billing: Billing;
  const user = randomUserId();
  const other = randomUserId();

  const statistics = (path: string, userId = user, role = Role.User): Promise<Statistics> =>
    billing.as(userId, role).get(path);

  // 20:59:59Z is 23:59:59 in Moscow, still day 1; 21:00:00Z is already day 2 there.
  const events = [
    aUsageEventAt(user, at(`${day(0)}T21:00:00Z`), { quota: 50, prompt_tokens: 40, completion_tokens: 4 }),
    aUsageEventAt(user, at(`${day(1)}T20:59:59Z`), { quota: 100 }),
    aUsageEventAt(user, at(`${day(1)}T21:00:00Z`), { quota: 200 }),
    aUsageEventAt(user, at(`${day(2)}T10:00:00Z`), { quota: 300, model: 'claude-haiku-4-5', token_id: 8 }),
    aUsageEventAt(other, at(`${day(2)}T10:00:00Z`), { quota: 5_000 }),
    // Day 3: Anthropic calls reading from and writing to the prompt cache, and one that used no cache.
    aUsageEventAt(user, at(`${day(3)}T09:00:00Z`), {
      model: 'claude-sonnet-4-5',
      prompt_tokens: 4_000,
      cached_tokens: 1_000,
      cache_write_tokens: 2_000,
      cache_write_1h_tokens: 1_500,
      quota: 400,
    }),
    aUsageEventAt(user, at(`${day(3)}T10:00:00Z`), {
      model: 'claude-sonnet-4-5',
      prompt_tokens: 3_000,
      cached_tokens: 2_000,
      cache_write_tokens: 700,
      quota: 300,
    }),
    aUsageEventAt(user, at(`${day(3)}T11:00:00Z`), { model: 'claude-sonnet-4-5', quota: 20 }),
  ];

  beforeAll(async () => {
    await harness.open();
    billing = await harness.start();
    // The first event arrives three times: the statistics must count it once.
    await harness.publishUsage(events);
    await harness.publishUsage([events[0]]);
    await harness.publishUsage([events[0]]);
    // Settled after the events above (same user, so same partition, in order).
    await harness.publishUsage([aUsageEventAt(user, at(`${day(6)}T12:00:00Z`), { quota: 1 })]);
    await eventually('every usage event in the statistics', async () => {
      const answer = await statistics(`/api/statistics/self?start_date=${day(0)}&end_date=${day(6)}`);
      return answer.body.data?.some((row) => row.date === day(6)) ? true : undefined;
    });
  });

  afterAll(() => harness.close());

  const noCache = { cached_tokens: 0, cache_write_5m_tokens: 0, cache_write_1h_tokens: 0 };
  const moscowDay = (date: string) => ({
    start_timestamp: at(`${date}T00:00:00+03:00`),
    end_timestamp: at(`${date}T23:59:59+03:00`),
  });

  it("answers the caller's usage per Moscow day and model, a redelivered event counted once", async () => {
    const query = `start_date=${at(`${day(1)}T00:00:00+03:00`)}&end_date=${at(`${day(2)}T23:59:59+03:00`)}`;
    const answer = await statistics(`/api/statistics/self?${query}`);
    expect(answer).toEqual({
      status: 200,
      body: {
        success: true,
        message: '',
        data: [
          {
            date: day(1),
            ...moscowDay(day(1)),
            model_name: 'gpt-4o-mini',
            requests: 2,
            prompt_tokens: 140,
            completion_tokens: 14,
            ...noCache,
            quota: 150,
          },
          {
            date: day(2),
            ...moscowDay(day(2)),
            model_name: 'claude-haiku-4-5',
            requests: 1,
            prompt_tokens: 100,
            completion_tokens: 10,
            ...noCache,
            quota: 300,
          },
          {
            date: day(2),
            ...moscowDay(day(2)),
            model_name: 'gpt-4o-mini',
            requests: 1,
            prompt_tokens: 100,
            completion_tokens: 10,
            ...noCache,
            quota: 200,
          },
        ],
      },
    });
  });

  it("sums the day's prompt-cache reads, 5-minute writes and hour-long writes apart, for the user and for admins", async () => {
    const claudeDay = {
      date: day(3),
      ...moscowDay(day(3)),
      model_name: 'claude-sonnet-4-5',
      requests: 3,
      prompt_tokens: 7_100,
      completion_tokens: 30,
      cached_tokens: 3_000,
      cache_write_5m_tokens: 500 + 700,
      cache_write_1h_tokens: 1_500,
      quota: 720,
    };
    const own = await statistics(`/api/statistics/self?start_date=${day(3)}&end_date=${day(3)}`);
    const admins = await statistics(
      `/api/statistics/?start_date=${day(3)}&end_date=${day(3)}&user_id=${user}`,
      other,
      Role.Admin,
    );

    expect(own.body.data).toEqual([claudeDay]);
    expect(admins.body.data).toEqual([claudeDay]);
  });

  it('narrows to one token, and gives admins every user or one', async () => {
    const byToken = await statistics(
      `/api/statistics/self?start_date=${day(1)}&end_date=${day(2)}&token_id=8`,
    );
    expect(byToken.body.data?.map((row) => [row.date, row.model_name, row.quota])).toEqual([
      [day(2), 'claude-haiku-4-5', 300],
    ]);

    expect((await statistics(`/api/statistics/?start_date=${day(2)}&end_date=${day(2)}`)).status).toBe(403);
    const everyone = await statistics(
      `/api/statistics/?start_date=${day(2)}&end_date=${day(2)}`,
      other,
      Role.Admin,
    );
    expect(everyone.body.data?.map((row) => [row.model_name, row.requests, row.quota])).toEqual([
      ['claude-haiku-4-5', 1, 300],
      ['gpt-4o-mini', 2, 5_200],
    ]);
    const one = await statistics(
      `/api/statistics/?start_date=${day(2)}&end_date=${day(2)}&user_id=${other}`,
      other,
      Role.Admin,
    );
    expect(one.body.data?.map((row) => row.quota)).toEqual([5_000]);
  });

  it('gives admins the overview: active users and upstream errors today, 7 and 30 days, the top users, the lag', async () => {
    const [busy, quiet] = [randomUserId(), randomUserId()];
    const now = Math.floor(Date.now() / 1000);
    await harness.publishUsage([
      aUsageEventAt(busy, now - 60, { quota: 4_000 }),
      aUsageEventAt(busy, now - 30, { quota: 0, status: 'upstream_error' }),
      aUsageEventAt(quiet, now - 3 * 86_400, { quota: 700 }),
    ]);

    const overview = await eventually('the recent usage in the overview', async () => {
      const answer = await billing.asAdmin(other).get<{ data?: AdminOverview }>('/api/statistics/overview');
      return answer.body.data?.windows[2]?.requests === 3 ? answer.body.data : undefined;
    });
    const refused = await statistics('/api/statistics/overview');

    expect(overview.windows).toEqual([
      { days: 1, active_users: 1, requests: 2, errors: 1 },
      { days: 7, active_users: 2, requests: 3, errors: 1 },
      { days: 30, active_users: 2, requests: 3, errors: 1 },
    ]);
    expect(overview.top_users).toEqual([
      { user_id: busy, username: null, quota: 4_000, requests: 2 },
      { user_id: quiet, username: null, quota: 700, requests: 1 },
    ]);
    if (kind === 'real') expect(overview.consumer_lag).toEqual(expect.any(Number));
    else expect([null, 0]).toContain(overview.consumer_lag);
    expect(refused.status).toBe(403);
  });

  it('refuses a reversed range', async () => {
    const reversed = await statistics(`/api/statistics/self?start_date=${day(2)}&end_date=${day(1)}`);
    expect(reversed).toEqual({
      status: 400,
      body: { success: false, message: 'start_date must not be after end_date' },
    });
  });
});
