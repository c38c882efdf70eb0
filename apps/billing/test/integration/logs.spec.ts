import { LogType, Role, type LogItem, type Page } from '@tollgate/contracts';
import {
  anIdentityUser,
  eventually,
  INFRASTRUCTURES,
  randomUserId,
  startFakeCbr,
  type FakeCbr,
  withDatabase,
  type JsonResponse,
} from '@tollgate/testing';
import { BillingHarness, type Billing } from './billing-harness';
import { aUsageEvent } from './builders';

jest.setTimeout(90_000);

const DAY = 86_400;
/** The bank's rate the exports convert quota to rubles at: 500 000 quota = $1 = 80 ₽. */
const RATE = '80,0000';
/** `epochSeconds` as Moscow wall time with its offset, as the export writes it. */
const moscowTime = (epochSeconds: number) =>
  `${new Date((epochSeconds + 3 * 3600) * 1000).toISOString().slice(0, 19)}+03:00`;
type LogPage = JsonResponse<{ success: boolean; message: string; data?: Page<LogItem> }>;

describe.each(INFRASTRUCTURES)('billing logs on %s infrastructure', (kind) => {
  const harness = new BillingHarness(kind, 'billing-logs-it', {
    // The 13th line (newest first) is a request with a promo bonus in the same second after it:
    // an export batch ends between the two, so the keyset cursor must keep both.
    env: () => ({ LOG_EXPORT_BATCH_ROWS: '13', CBR_DAILY_URL: cbr.dailyUrl }),
  });
  let billing: Billing;
  let cbr: FakeCbr;
  const now = Math.floor(Date.now() / 1000);
  const user = randomUserId();
  const other = randomUserId();
  const admin = randomUserId();

  const logs = (path: string, userId = user, role = Role.User): Promise<LogPage> =>
    billing.as(userId, role).get(path);
  const items = async (path: string, userId = user, role = Role.User) =>
    (await logs(path, userId, role)).body.data?.items ?? [];
  const download = async (
    path: string,
    userId = user,
    role = Role.User,
    headers: Record<string, string> = {},
  ) => {
    const response = await billing.as(userId, role).fetch(path, { headers });
    // ignoreBOM keeps the byte-order mark in the text, so the test sees it.
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await response.arrayBuffer());
    return { status: response.status, headers: response.headers, text };
  };

  // The user's history: 23 requests an hour apart, one failed upstream, one through another token
  // and model, plus four balance changes recorded in the ledger (one in the second of a request).
  const usage = Array.from({ length: 23 }, (_, i) =>
    aUsageEvent(user, {
      created_at: now - DAY + i * 3600,
      quota: 1000 + i,
      ...(i === 5 && { status: 'upstream_error' as const, quota: 0 }),
      ...(i === 6 && {
        token_id: 8,
        token_name: '=HYPERLINK("x")',
        model: 'claude-haiku-4-5',
        channel_id: 4,
      }),
      ...(i === 7 && { group: 'vip' }),
    }),
  );
  const othersUsage = aUsageEvent(other, { created_at: now - 3 * DAY, token_name: 'other' });

  beforeAll(async () => {
    cbr = await startFakeCbr(RATE);
    await harness.open();
    // Ledger entries are written while billing is stopped (PGlite has one connection).
    const database = await harness.migratedDatabase();
    await withDatabase(database, async (query) => {
      await query('insert into accounts (user_id) values (?)', [user]);
      await query(
        `insert into ledger_entries (user_id, kind, amount, idempotency_key, note, created_at) values
          (?, 'top_up', 5000000, ?, 'yookassa 1000.00 RUB at 80', to_timestamp(?)),
          (?, 'admin_adjustment', -200, ?, 'set by admin 5: pilot', to_timestamp(?)),
          (?, 'refund', -300, ?, 'refund of payment 41', to_timestamp(?)),
          (?, 'top_up', 1, ?, 'too old for the default range', to_timestamp(?)),
          (?, 'promo_bonus', 700, ?, 'promo 3', to_timestamp(?))`,
        [
          user,
          `t-${user}`,
          now - 2 * DAY,
          user,
          `a-${user}`,
          now - 2 * DAY + 1,
          user,
          `r-${user}`,
          now - 2 * DAY + 2,
          user,
          `o-${user}`,
          now - 20 * DAY,
          user,
          `p-${user}`,
          usage[10].created_at,
        ],
      );
    });
    billing = await harness.start({ database });
    await harness.publishUsers([anIdentityUser(user), anIdentityUser(other)]);
    await harness.publishUsage([...usage, othersUsage]);
    // Filtered by user: on a shared broker billing may also settle other runs' leftover events.
    await eventually('every usage line and both usernames', async () => {
      const mine = (await logs(`/api/log/?user_id=${user}&page_size=100`, admin, Role.Admin)).body.data
        ?.items;
      const theirs = (await logs(`/api/log/?user_id=${other}`, admin, Role.Admin)).body.data?.items;
      const all = [...(mine ?? []), ...(theirs ?? [])];
      return all.length === usage.length + 5 && all.every((line) => line.username !== '') ? true : undefined;
    });
  });

  afterAll(async () => {
    await harness.close();
    await cbr.close();
  });

  it("pages the caller's own lines newest first, 20 by default, with new-api's fields", async () => {
    const first = await logs('/api/log/self');
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ page: 1, page_size: 20, total: usage.length + 4 });
    const lines = first.body.data!.items;
    const newestFirst = [...usage].reverse().map((event) => event.created_at);
    newestFirst.splice(13, 0, usage[10].created_at); // the promo bonus, after the request of its second
    expect(lines.map((line) => line.created_at)).toEqual(newestFirst.slice(0, 20));
    expect([lines[12].type, lines[13].type]).toEqual([LogType.Consume, LogType.TopUp]);
    const newest = usage[usage.length - 1];
    expect(lines[0]).toEqual({
      id: expect.stringMatching(/^usage-\d+$/),
      created_at: newest.created_at,
      type: LogType.Consume,
      user_id: user,
      username: `user_${user}`,
      token_id: 7,
      token_name: 'ci',
      model_name: 'gpt-4o-mini',
      quota: newest.quota,
      prompt_tokens: 1200,
      completion_tokens: 300,
      cached_tokens: 200,
      cache_write_5m_tokens: 0,
      cache_write_1h_tokens: 0,
      use_time: 2,
      is_stream: true,
      group: 'default',
      request_id: newest.request_id,
      content: '',
    });

    const third = await items('/api/log/self?p=3&page_size=10');
    expect(third.map((line) => [line.type, line.quota, line.content])).toEqual([
      [LogType.Consume, usage[3].quota, ''],
      [LogType.Consume, usage[2].quota, ''],
      [LogType.Consume, usage[1].quota, ''],
      [LogType.Consume, usage[0].quota, ''],
      // Billing's own notes in the reader's language; a note of no known shape as written.
      [LogType.Refund, -300, 'refund of payment 41'],
      [LogType.Manage, -200, 'Баланс изменён администратором №5: pilot'],
      [LogType.TopUp, 5_000_000, 'ЮKassa: 1000,00 ₽ по курсу 80 ₽ за доллар'],
    ]);
    const english = await billing
      .as(user, Role.User)
      .fetch('/api/log/self?p=3&page_size=10', { headers: { 'accept-language': 'en' } });
    const englishPage = (await english.json()) as { data: Page<LogItem> };
    expect(englishPage.data.items.slice(-2).map((line) => line.content)).toEqual([
      'Balance changed by admin #5: pilot',
      'YooKassa: 1000.00 RUB at 80 RUB per dollar',
    ]);
  });

  it('filters by type, model, token and time range, and refuses a range of 31 days', async () => {
    expect((await items('/api/log/self?type=5')).map((line) => line.request_id)).toEqual([
      usage[5].request_id,
    ]);
    expect((await items('/api/log/self?type=1')).map((line) => line.quota)).toEqual([700, 5_000_000]);
    expect((await items('/api/log/self?type=2&page_size=100')).length).toBe(usage.length - 1);
    expect(
      (await items('/api/log/self?model_name=claude-haiku-4-5&token_name=')).map((l) => l.token_id),
    ).toEqual([8]);
    expect((await items('/api/log/self?token_name=ci&page_size=100')).length).toBe(usage.length - 1);
    expect(
      (await items(`/api/log/self?start_timestamp=${now - 25 * DAY}&end_timestamp=${now - 19 * DAY}`)).map(
        (line) => line.content,
      ),
    ).toEqual(['too old for the default range']);
    expect(
      (
        await items(
          `/api/log/self?start_timestamp=${usage[3].created_at}&end_timestamp=${usage[4].created_at}`,
        )
      ).map((line) => line.created_at),
    ).toEqual([usage[4].created_at, usage[3].created_at]);

    const tooWide = await logs(`/api/log/self?start_timestamp=${now - 31 * DAY}&end_timestamp=${now}`);
    expect(tooWide).toEqual({
      status: 400,
      body: { success: false, message: 'Период должен быть короче 31 дня' },
    });
    expect((await logs(`/api/log/self?start_timestamp=${now}&end_timestamp=${now - 1}`)).status).toBe(400);
    expect((await logs('/api/log/self?type=9')).status).toBe(400);
  });

  it("shows a user only their own lines and admins everyone's, by user, username, channel and group", async () => {
    expect((await logs('/api/log/self', other)).body.data?.items.map((line) => line.token_name)).toEqual([
      'other',
    ]);
    expect((await logs('/api/log/', user)).status).toBe(403);
    expect((await logs('/api/log/export', user)).status).toBe(403);

    const byUsername = await items(`/api/log/?username=user_${other}`, admin, Role.Admin);
    expect(byUsername).toEqual([
      expect.objectContaining({ user_id: other, username: `user_${other}`, channel: 3, token_name: 'other' }),
    ]);
    const byChannel = await items(`/api/log/?channel=4&user_id=${user}`, admin, Role.Admin);
    expect(byChannel.map((line) => line.model_name)).toEqual(['claude-haiku-4-5']);
    const byGroup = await items(`/api/log/?group=vip&user_id=${user}`, admin, Role.Admin);
    expect(byGroup.map((line) => line.request_id)).toEqual([usage[7].request_id]);
    expect((await logs(`/api/log/?user_id=${user}`, admin, Role.Admin)).body.data?.total).toBe(
      usage.length + 4,
    );
  });

  it("exports the caller's lines as a Russian spreadsheet reads them, formula-safe, and answers 429 with Retry-After when asked again within 10 s", async () => {
    const csv = await download(`/api/log/self/export?model_name=claude-haiku-4-5`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('content-disposition')).toMatch(
      /^attachment; filename="logs-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const event = usage[6];
    // Russian by default: headers in Russian, semicolons and decimal commas (Excel's Russian list
    // separator), Moscow time with its offset, the cost in rubles as the dashboard shows it
    // (1006 quota × 80 ₽ / 500 000 = 0,16096 ₽), the response time in seconds.
    expect(csv.text).toBe(
      '\ufeffВремя;Тип;Пользователь;Ключ;Модель;Сумма, ₽;Токены запроса;Токены ответа;Токены из кэша;' +
        'Токены записи в кэш, 5 мин;Токены записи в кэш, 1 ч;' +
        'Время ответа, с;Потоковый ответ;Группа;ID запроса;Примечание\r\n' +
        `${moscowTime(event.created_at)};Запрос;user_${user};"'=HYPERLINK(""x"")";claude-haiku-4-5;` +
        `0,16096;1200;300;200;0;0;2,500;да;default;${event.request_id};\r\n`,
    );

    const again = await download('/api/log/self/export');
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(again.headers.get('retry-after'))).toBeLessThanOrEqual(10);
    expect(JSON.parse(again.text)).toMatchObject({ success: false });
  });

  it('exports in English with commas, in dollars and in the time zone the caller asks for', async () => {
    const csv = await download('/api/log/self/export?currency=USD&tz=Asia/Kolkata', other, Role.User, {
      'accept-language': 'en-US,en;q=0.9',
    });
    expect(csv.status).toBe(200);
    const kolkata = new Date((othersUsage.created_at + 5.5 * 3600) * 1000).toISOString().slice(0, 19);
    // 1000 quota = $0.002.
    expect(csv.text).toBe(
      '\ufeffTime,Type,User,Key,Model,"Amount, $",Prompt tokens,Completion tokens,Cached tokens,' +
        '"Cache write tokens, 5 min","Cache write tokens, 1 h",' +
        '"Response time, s",Streamed,Group,Request ID,Note\r\n' +
        `${kolkata}+05:30,Request,user_${other},other,gpt-4o-mini,0.002,1200,300,200,0,0,2.500,yes,default,` +
        `${othersUsage.request_id},\r\n`,
    );
  });

  it("exports a user's whole range for an admin, every line once, with user and channel columns", async () => {
    const csv = await download(`/api/log/export?user_id=${user}`, admin, Role.Admin);
    expect(csv.status).toBe(200);
    const rows = csv.text
      .replace(/^\ufeff/, '')
      .trimEnd()
      .split('\r\n');
    expect(rows[0]).toBe(
      'Время;Тип;ID пользователя;Пользователь;Ключ;Модель;Сумма, ₽;Токены запроса;Токены ответа;' +
        'Токены из кэша;Токены записи в кэш, 5 мин;Токены записи в кэш, 1 ч;Время ответа, с;' +
        'Потоковый ответ;Группа;ID запроса;Примечание;Канал',
    );
    expect(rows).toHaveLength(1 + usage.length + 4);
    expect(new Set(rows).size).toBe(rows.length);
    expect(rows[13]).toContain(usage[10].request_id);
    expect(rows[14]).toContain(';Бонус по промокоду №3;');
    expect(rows[1]).toMatch(new RegExp(`^[^;]+;Запрос;${user};user_${user};ci;gpt-4o-mini;.*;3$`));
    // 5 000 000 quota = $10 = 800 ₽; a balance change has no tokens, response time or streaming.
    expect(rows.at(-1)).toBe(
      `${moscowTime(now - 2 * DAY)};Пополнение;${user};user_${user};;;800,00;;;;;;;;;;` +
        'ЮKassa: 1000,00 ₽ по курсу 80 ₽ за доллар;',
    );
  });
});
