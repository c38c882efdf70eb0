import { priceKey, Role, TOPICS, type BillingPrice } from '@tollgate/contracts';
import {
  eventually,
  INFRASTRUCTURES,
  randomUserId,
  startFakeCbr,
  withDatabase,
  type FakeCbr,
} from '@tollgate/testing';
import { BillingHarness, providersEnv, type Billing } from './billing-harness';

jest.setTimeout(60_000);

interface RateAnswer {
  success: boolean;
  data: { usd_rub: string; source: string; stale: boolean; updated_at: number };
}

describe.each(INFRASTRUCTURES)('billing exchange rate on %s infrastructure', (kind) => {
  let cbr: FakeCbr;
  const harness = new BillingHarness(kind, 'billing-exchange-rate-it', {
    record: [TOPICS.billingPrice],
    env: () => ({
      ...providersEnv({ cbr }),
      CBR_TIMEOUT_MS: '1000',
      EXCHANGE_RATE_REFRESH_SECONDS: '1',
      EXCHANGE_RATE_STALE_AFTER_SECONDS: '2',
      TOLLGATE_USD_RUB: '95.5',
    }),
  });

  const put = (billing: Billing, body: unknown, role: Role) =>
    billing.as(randomUserId(), role).put<RateAnswer>('/api/exchange-rate', body);

  const rate = async (billing: Billing) =>
    (await billing.anonymous().get<RateAnswer>('/api/exchange-rate')).body.data;

  beforeAll(async () => {
    await harness.open();
    cbr = await startFakeCbr('81,1234');
  });

  afterAll(async () => {
    await harness.close();
    await cbr?.close();
  });

  it('serves the configured rate as stale until the bank answers, then the bank rate, and the last bank rate as stale while the bank is down', async () => {
    const database = await harness.createDatabase();
    cbr.setDown(true);
    const billing = await harness.start({ database });
    try {
      const beforeTheBank = await rate(billing);

      cbr.setDown(false);
      const fromTheBank = await eventually('the bank rate', async () => {
        const current = await rate(billing);
        return current.source === 'cbr' && !current.stale ? current : undefined;
      });

      cbr.setDown(true);
      const whileDown = await eventually('the bank rate to turn stale', async () => {
        const current = await rate(billing);
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
    const database = await harness.createDatabase();
    cbr.setUsdRate('90,0000');
    const billing = await harness.start({ database });
    try {
      const asUser = await put(billing, { usd_rub: '1' }, Role.User);
      const invalid = await put(billing, { usd_rub: '0' }, Role.Admin);
      const overridden = await put(billing, { usd_rub: '100.25' }, Role.Admin);
      const served = await rate(billing);
      const removed = await put(billing, { usd_rub: null }, Role.Admin);

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
    const database = await harness.createDatabase();
    cbr.setUsdRate('88,5000');
    const billing = await harness.start({ database });
    const published = (rate: string) =>
      harness
        .recorder(TOPICS.billingPrice)
        .values<BillingPrice>((v) => v.kind === 'exchange_rate' && v.rate === rate)[0];
    try {
      await eventually('the bank rate on billing.price', async () => published('88.5'));
      await put(billing, { usd_rub: '123.456789' }, Role.Admin);
      const override = await eventually('the override on billing.price', async () => published('123.456789'));
      const removedAt = Math.floor(Date.now() / 1000);
      await put(billing, { usd_rub: null }, Role.Admin);
      // A fetch after the removal finds the same bank rate again: it publishes nothing more.
      await eventually('a fetch after the removal', async () =>
        (await rate(billing)).updated_at > removedAt ? true : undefined,
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
