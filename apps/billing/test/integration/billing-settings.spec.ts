import {
  SETTING_KEYS,
  TOPICS,
  type BillingPrice,
  type ExchangeRate,
  type PaymentProviderName,
} from '@tollgate/contracts';
import {
  anIdentityUser,
  eventually,
  INFRASTRUCTURES,
  randomUserId,
  startFakeCbr,
  type FakeCbr,
} from '@tollgate/testing';
import { BillingHarness, providersEnv, type Billing } from './billing-harness';
import { aPaymentRequest } from './builders';

jest.setTimeout(90_000);

/**
 * Operators' settings billing applies (catalog.option, as admin publishes them), each changing
 * billing's behaviour without a restart: the new accounts' quota, the affiliate reward, the rate's
 * markup and the payment methods' switches.
 */
describe.each(INFRASTRUCTURES)('settings applied by billing on %s infrastructure', (kind) => {
  let cbr: FakeCbr;
  let billing: Billing;
  const harness = new BillingHarness(kind, 'billing-settings-it', {
    topics: [TOPICS.catalogOption, TOPICS.identityUser],
    record: [TOPICS.billingBalance, TOPICS.billingPrice],
    env: () => ({ ...providersEnv({ cbr }), TOLLGATE_PAYMENT_TEST: 'false' }),
  });

  const pay = (userId: number, provider: PaymentProviderName) =>
    billing
      .asUser(userId)
      .post<{ message: string; data?: { quota: number } }>(
        '/api/user/payment',
        aPaymentRequest({ provider }),
      );

  beforeAll(async () => {
    await harness.open();
    cbr = await startFakeCbr('80,0000');
    billing = await harness.start();
  });

  afterAll(async () => {
    await harness.close();
    await cbr?.close();
  });

  it('credits QuotaForNewUser to accounts opened after it is set, once, through the ledger', async () => {
    const before = randomUserId();
    await harness.publishUsers([anIdentityUser(before)]);
    await eventually('the account opened before the setting', async () => harness.balancesOf(before)[0]);

    await harness.setOption(SETTING_KEYS.quotaForNewUser, '250000');
    const after = randomUserId();
    // Published until billing has read the setting: an account it opened before that has no bonus.
    const credited = await eventually('a new account with the initial quota', async () => {
      const candidate = randomUserId();
      await harness.publishUsers([anIdentityUser(candidate)]);
      await eventually('its account', async () => harness.balancesOf(candidate).at(-1));
      return harness.balancesOf(candidate).at(-1)!.quota === 250_000 ? candidate : undefined;
    });
    await harness.publishUsers([anIdentityUser(after)]);
    await harness.publishUsers([anIdentityUser(after, Math.floor(Date.now() / 1000) + 5)]);
    await harness.publishUsers([anIdentityUser(before, Math.floor(Date.now() / 1000) + 5)]);

    const latest = (userId: number) =>
      eventually(`the balance of ${userId}`, async () => harness.balancesOf(userId).at(-1));
    expect((await latest(after)).quota).toBe(250_000);
    expect((await latest(credited)).quota).toBe(250_000);
    // Redelivered and changed users are no new accounts; users from before the setting get nothing.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(harness.balancesOf(after).map((event) => event.quota)).not.toContain(500_000);
    expect((await latest(before)).quota).toBe(0);
    const audit = await billing.ledgerAudit();
    expect(audit.body.data).toEqual([]);
    await harness.setOption(SETTING_KEYS.quotaForNewUser, '');
  });

  it('shows and applies the AffiliateRewardPercent an operator sets', async () => {
    const userId = randomUserId();
    const summary = async () =>
      (await billing.asUser(userId).get<{ data: { reward_percent: string } }>('/api/user/aff_transfer')).body
        .data.reward_percent;
    expect(await summary()).toBe('5');

    await harness.setOption(SETTING_KEYS.affiliateRewardPercent, '12.5');

    await eventually('the operators’ reward percent', async () =>
      (await summary()) === '12.5' ? true : undefined,
    );
    await harness.setOption(SETTING_KEYS.affiliateRewardPercent, '');
    await eventually('the configured percent again', async () =>
      (await summary()) === '5' ? true : undefined,
    );
  });

  it('raises the rate by ExchangeRateMarkupPercent, for the rate shown and the quota a top-up buys', async () => {
    const rate = async () =>
      (await billing.anonymous().get<{ data: ExchangeRate }>('/api/exchange-rate')).body.data;
    expect((await rate()).usd_rub).toBe('80');

    await harness.setOption(SETTING_KEYS.exchangeRateMarkupPercent, '25');
    await eventually('the rate with the markup', async () =>
      (await rate()).usd_rub === '100' ? true : undefined,
    );
    // Relay tells ruble costs at the same rate: the markup's change is published on billing.price.
    await eventually(
      'the rate with the markup on billing.price',
      async () =>
        harness
          .recorder(TOPICS.billingPrice)
          .values<BillingPrice>((v) => v.kind === 'exchange_rate' && v.rate === '100')[0],
    );
    await harness.setOption(SETTING_KEYS.testPaymentEnabled, 'true');
    const paid = await eventually('a test top-up at the raised rate', async () => {
      const answer = await pay(randomUserId(), 'test');
      return answer.status === 200 ? answer : undefined;
    });

    // 1000 RUB at 100 RUB per dollar: 10 dollars of quota.
    expect(paid.body.data?.quota).toBe(5_000_000);
    await harness.setOption(SETTING_KEYS.exchangeRateMarkupPercent, '0');
    await eventually('the rate without the markup', async () =>
      (await rate()).usd_rub === '80' ? true : undefined,
    );
  });

  it('refuses top-ups by a method an operator switched off, and takes them again once switched on', async () => {
    await harness.setOption(SETTING_KEYS.testPaymentEnabled, 'true');
    await eventually('test top-ups on', async () =>
      (await pay(randomUserId(), 'test')).status === 200 ? true : undefined,
    );

    await harness.setOption(SETTING_KEYS.testPaymentEnabled, 'false');
    const refused = await eventually('test top-ups off', async () => {
      const answer = await pay(randomUserId(), 'test');
      return answer.status === 400 ? answer : undefined;
    });
    expect(refused.body.message).toBe('Этот способ оплаты сейчас недоступен');
    await harness.setOption(SETTING_KEYS.testPaymentEnabled, '');
    // TOLLGATE_PAYMENT_TEST is false here: with the setting cleared, the configuration refuses too.
    expect((await pay(randomUserId(), 'test')).status).toBe(400);
  });
});
