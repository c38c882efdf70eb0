import { randomBytes } from 'node:crypto';
import { priceKey, Role, TOPICS, type BillingPrice } from '@tollgate/contracts';
import type { TestDatabase } from '@tollgate/persistence';
import { INTERNAL_IDENTITY_HEADER, signInternalToken } from '@tollgate/platform';
import type { Env } from '@tollgate/runtime';
import {
  eventually,
  getJson,
  INFRASTRUCTURES,
  openInfrastructure,
  randomUserId,
  startFakeCbr,
  waitUntilReady,
  withDatabase,
  TopicRecorder,
  type FakeCbr,
  type TestInfrastructureWithDatabase,
} from '@tollgate/testing';
import { startBilling } from '../../src';

jest.setTimeout(60_000);

interface RateAnswer {
  success: boolean;
  data: { usd_rub: string; source: string; stale: boolean; updated_at: number };
}

describe.each(INFRASTRUCTURES)('billing exchange rate on %s infrastructure', (kind) => {
  let infra: TestInfrastructureWithDatabase;
  let cbr: FakeCbr;
  let prices: TopicRecorder;
  const secret = randomBytes(32).toString('hex');

  const billingEnv = (database: TestDatabase): Env => ({
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'error',
    DATABASE_URL: database.url,
    TOLLGATE_INTERNAL_TOKEN_SECRET: secret,
    CBR_DAILY_URL: cbr.dailyUrl,
    CBR_TIMEOUT_MS: '1000',
    EXCHANGE_RATE_REFRESH_SECONDS: '1',
    EXCHANGE_RATE_STALE_AFTER_SECONDS: '2',
    TOLLGATE_USD_RUB: '95.5',
  });

  const as = async (role: Role) => ({
    [INTERNAL_IDENTITY_HEADER]: await signInternalToken(
      { userId: randomUserId(), role, via: 'session' },
      secret,
    ),
  });

  const put = async (url: string, body: unknown, headers: Record<string, string>) => {
    const response = await fetch(`${url}/api/exchange-rate`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as RateAnswer };
  };

  const rate = async (url: string) => (await getJson<RateAnswer>(`${url}/api/exchange-rate`)).body.data;

  beforeAll(async () => {
    infra = await openInfrastructure(kind, 'billing-exchange-rate-it');
    cbr = await startFakeCbr('81,1234');
    await infra.runtime.bus.ensureTopics([TOPICS.billingPrice]);
    prices = await TopicRecorder.start(
      infra.runtime.bus,
      TOPICS.billingPrice.name,
      `billing-exchange-rate-it.${infra.runId}`,
    );
  });

  afterAll(async () => {
    await prices?.stop();
    await cbr?.close();
    await infra?.close();
  });

  it('serves the configured rate as stale until the bank answers, then the bank rate, and the last bank rate as stale while the bank is down', async () => {
    const database = await infra.createDatabase();
    cbr.setDown(true);
    const billing = await startBilling(billingEnv(database), infra.runtime);
    try {
      await waitUntilReady(billing.url);
      const beforeTheBank = await rate(billing.url);

      cbr.setDown(false);
      const fromTheBank = await eventually('the bank rate', async () => {
        const current = await rate(billing.url);
        return current.source === 'cbr' && !current.stale ? current : undefined;
      });

      cbr.setDown(true);
      const whileDown = await eventually('the bank rate to turn stale', async () => {
        const current = await rate(billing.url);
        return current.stale ? current : undefined;
      });

      expect(beforeTheBank).toMatchObject({ usd_rub: '95.5', source: 'config', stale: true });
      expect(fromTheBank).toMatchObject({ usd_rub: '81.1234', source: 'cbr', stale: false });
      expect(whileDown).toMatchObject({ usd_rub: '81.1234', source: 'cbr', stale: true });
    } finally {
      cbr.setDown(false);
      await billing.close();
    }
  });

  it('lets admins, not users, override the rate, and follows the bank again once the override is removed', async () => {
    const database = await infra.createDatabase();
    cbr.setUsdRate('90,0000');
    const billing = await startBilling(billingEnv(database), infra.runtime);
    try {
      await waitUntilReady(billing.url);
      const asUser = await put(billing.url, { usd_rub: '1' }, await as(Role.User));
      const invalid = await put(billing.url, { usd_rub: '0' }, await as(Role.Admin));
      const overridden = await put(billing.url, { usd_rub: '100.25' }, await as(Role.Admin));
      const served = await rate(billing.url);
      const removed = await put(billing.url, { usd_rub: null }, await as(Role.Admin));

      expect(asUser.status).toBe(403);
      expect(invalid.status).toBe(400);
      expect(overridden.body.data).toMatchObject({ usd_rub: '100.25', source: 'admin', stale: false });
      expect(served).toMatchObject({ usd_rub: '100.25', source: 'admin' });
      expect(removed.body.data).toMatchObject({ usd_rub: '90', source: 'cbr' });
    } finally {
      await billing.close();
    }
    // Each override is in the audit trail, written with it (read once billing has stopped).
    const audited = await withDatabase(database, (query) =>
      query<{ value: { action: string; before: unknown; after: unknown } }>(
        `select value from outbox_messages where topic = 'audit.recorded' order by id`,
      ),
    );
    expect(audited.map((row) => [row.value.action, row.value.before, row.value.after])).toEqual([
      ['exchange_rate.override', { usd_rub_override: null }, { usd_rub_override: '100.25' }],
      ['exchange_rate.override', { usd_rub_override: '100.25' }, { usd_rub_override: null }],
    ]);
  });

  it('publishes the rate in force on billing.price at start-up and on each change, not on each fetch', async () => {
    const database = await infra.createDatabase();
    cbr.setUsdRate('88,5000');
    const billing = await startBilling(billingEnv(database), infra.runtime);
    const published = (rate: string) =>
      prices.values<BillingPrice>((v) => v.kind === 'exchange_rate' && v.rate === rate)[0];
    try {
      await waitUntilReady(billing.url);
      await eventually('the bank rate on billing.price', async () => published('88.5'));
      await put(billing.url, { usd_rub: '123.456789' }, await as(Role.Admin));
      const override = await eventually('the override on billing.price', async () => published('123.456789'));
      const removedAt = Math.floor(Date.now() / 1000);
      await put(billing.url, { usd_rub: null }, await as(Role.Admin));
      // A fetch after the removal finds the same bank rate again: it publishes nothing more.
      await eventually('a fetch after the removal', async () =>
        (await rate(billing.url)).updated_at > removedAt ? true : undefined,
      );

      expect(override).toEqual({
        v: 1,
        kind: 'exchange_rate',
        pair: 'USD_RUB',
        rate: '123.456789',
        updated_at: expect.any(Number),
      });
    } finally {
      await billing.close();
    }
    // What went into the outbox for billing.price, in order (read once billing has stopped).
    const rows = await withDatabase(database, (query) =>
      query<{ value: BillingPrice }>(
        'select value from outbox_messages where topic = ? and key = ? order by id',
        [TOPICS.billingPrice.name, priceKey.rate('USD_RUB')],
      ),
    );
    const rates = rows.map((row) => (row.value.kind === 'exchange_rate' ? row.value.rate : row.value.kind));
    // At start-up the configured rate (the bank not asked yet) or already the bank's; then each change once.
    expect(rates.slice(rates.indexOf('88.5'))).toEqual(['88.5', '123.456789', '88.5']);
    expect(['95.5', '88.5']).toContain(rates[0]);
  });
});
