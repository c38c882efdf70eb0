import { randomBytes } from 'node:crypto';
import {
  Role,
  SETTING_KEYS,
  TOPICS,
  type BillingBalance,
  type BillingPrice,
  type ExchangeRate,
  type IdentityUser,
} from '@tollgate/contracts';
import { INTERNAL_IDENTITY_HEADER, signInternalToken } from '@tollgate/platform';
import type { RunningService } from '@tollgate/runtime';
import {
  eventually,
  getJson,
  INFRASTRUCTURES,
  openInfrastructure,
  randomUserId,
  startFakeCbr,
  TopicRecorder,
  waitUntilReady,
  type FakeCbr,
  type TestInfrastructureWithDatabase,
} from '@tollgate/testing';
import { startBilling } from '../../src';

jest.setTimeout(90_000);

/**
 * Operators' settings billing applies (catalog.option, as admin publishes them), each changing
 * billing's behaviour without a restart: the new accounts' quota, the affiliate reward, the rate's
 * markup and the payment methods' switches.
 */
describe.each(INFRASTRUCTURES)('settings applied by billing on %s infrastructure', (kind) => {
  let infra: TestInfrastructureWithDatabase;
  let cbr: FakeCbr;
  let billing: RunningService;
  let balances: TopicRecorder;
  let prices: TopicRecorder;
  const secret = randomBytes(32).toString('hex');

  const setOption = (key: string, value: string) =>
    infra.runtime.bus.publish([
      {
        topic: TOPICS.catalogOption.name,
        key,
        value: { v: 1, key, value, updated_at: Math.floor(Date.now() / 1000) },
      },
    ]);
  const identity = async (userId: number, role = Role.User) => ({
    [INTERNAL_IDENTITY_HEADER]: await signInternalToken({ userId, role, via: 'session' }, secret),
  });
  const newUser = (id: number, updatedAt = Math.floor(Date.now() / 1000)): IdentityUser => ({
    v: 1,
    id,
    username: `u${id}`,
    display_name: '',
    role: Role.User,
    status: 1,
    group: 'default',
    inviter_id: null,
    created_at: updatedAt,
    updated_at: updatedAt,
  });
  const publishUser = (user: IdentityUser) =>
    infra.runtime.bus.publish([{ topic: TOPICS.identityUser.name, key: String(user.id), value: user }]);
  const balanceEvents = (userId: number) =>
    balances.values<BillingBalance>((value) => value.user_id === userId);
  const pay = async (userId: number, provider: string) => {
    const response = await fetch(`${billing.url}/api/user/payment`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(await identity(userId)) },
      body: JSON.stringify({ amount: '1000', provider, email: 'payer@example.com' }),
    });
    return {
      status: response.status,
      body: (await response.json()) as { message: string; data?: { quota: number } },
    };
  };

  beforeAll(async () => {
    infra = await openInfrastructure(kind, 'billing-settings-it');
    cbr = await startFakeCbr('80,0000');
    await infra.runtime.bus.ensureTopics([
      TOPICS.catalogOption,
      TOPICS.identityUser,
      TOPICS.billingBalance,
      TOPICS.billingPrice,
    ]);
    prices = await TopicRecorder.start(
      infra.runtime.bus,
      TOPICS.billingPrice.name,
      `settings-price.${infra.runId}`,
    );
    balances = await TopicRecorder.start(
      infra.runtime.bus,
      TOPICS.billingBalance.name,
      `settings-balance.${infra.runId}`,
    );
    const database = await infra.createDatabase();
    billing = await startBilling(
      {
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'error',
        DATABASE_URL: database.url,
        TOLLGATE_INTERNAL_TOKEN_SECRET: secret,
        CBR_DAILY_URL: cbr.dailyUrl,
        TOLLGATE_PAYMENT_TEST: 'false',
      },
      infra.runtime,
    );
    await waitUntilReady(billing.url);
  });

  afterAll(async () => {
    await billing?.close();
    await balances?.stop();
    await prices?.stop();
    await cbr?.close();
    await infra?.close();
  });

  it('credits QuotaForNewUser to accounts opened after it is set, once, through the ledger', async () => {
    const before = randomUserId();
    await publishUser(newUser(before));
    await eventually('the account opened before the setting', async () => balanceEvents(before)[0]);

    await setOption(SETTING_KEYS.quotaForNewUser, '250000');
    const after = randomUserId();
    // Published until billing has read the setting: an account it opened before that has no bonus.
    const credited = await eventually('a new account with the initial quota', async () => {
      const candidate = randomUserId();
      await publishUser(newUser(candidate));
      await eventually('its account', async () => balanceEvents(candidate).at(-1));
      return balanceEvents(candidate).at(-1)!.quota === 250_000 ? candidate : undefined;
    });
    await publishUser(newUser(after));
    await publishUser(newUser(after, Math.floor(Date.now() / 1000) + 5));
    await publishUser(newUser(before, Math.floor(Date.now() / 1000) + 5));

    const latest = (userId: number) =>
      eventually(`the balance of ${userId}`, async () => balanceEvents(userId).at(-1));
    expect((await latest(after)).quota).toBe(250_000);
    expect((await latest(credited)).quota).toBe(250_000);
    // Redelivered and changed users are no new accounts; users from before the setting get nothing.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(balanceEvents(after).map((event) => event.quota)).not.toContain(500_000);
    expect((await latest(before)).quota).toBe(0);
    const audit = await getJson<{ data: unknown[] }>(
      `${billing.url}/api/log/ledger-audit`,
      await identity(1, Role.Admin),
    );
    expect(audit.body.data).toEqual([]);
    await setOption(SETTING_KEYS.quotaForNewUser, '');
  });

  it('shows and applies the AffiliateRewardPercent an operator sets', async () => {
    const userId = randomUserId();
    const summary = async () =>
      (
        await getJson<{ data: { reward_percent: string } }>(
          `${billing.url}/api/user/aff_transfer`,
          await identity(userId),
        )
      ).body.data.reward_percent;
    expect(await summary()).toBe('5');

    await setOption(SETTING_KEYS.affiliateRewardPercent, '12.5');

    await eventually('the operators’ reward percent', async () =>
      (await summary()) === '12.5' ? true : undefined,
    );
    await setOption(SETTING_KEYS.affiliateRewardPercent, '');
    await eventually('the configured percent again', async () =>
      (await summary()) === '5' ? true : undefined,
    );
  });

  it('raises the rate by ExchangeRateMarkupPercent, for the rate shown and the quota a top-up buys', async () => {
    const rate = async () =>
      (await getJson<{ data: ExchangeRate }>(`${billing.url}/api/exchange-rate`)).body.data;
    expect((await rate()).usd_rub).toBe('80');

    await setOption(SETTING_KEYS.exchangeRateMarkupPercent, '25');
    await eventually('the rate with the markup', async () =>
      (await rate()).usd_rub === '100' ? true : undefined,
    );
    // Relay tells ruble costs at the same rate: the markup's change is published on billing.price.
    await eventually(
      'the rate with the markup on billing.price',
      async () => prices.values<BillingPrice>((v) => v.kind === 'exchange_rate' && v.rate === '100')[0],
    );
    await setOption(SETTING_KEYS.testPaymentEnabled, 'true');
    const paid = await eventually('a test top-up at the raised rate', async () => {
      const answer = await pay(randomUserId(), 'test');
      return answer.status === 200 ? answer : undefined;
    });

    // 1000 RUB at 100 RUB per dollar: 10 dollars of quota.
    expect(paid.body.data?.quota).toBe(5_000_000);
    await setOption(SETTING_KEYS.exchangeRateMarkupPercent, '0');
    await eventually('the rate without the markup', async () =>
      (await rate()).usd_rub === '80' ? true : undefined,
    );
  });

  it('refuses top-ups by a method an operator switched off, and takes them again once switched on', async () => {
    await setOption(SETTING_KEYS.testPaymentEnabled, 'true');
    await eventually('test top-ups on', async () =>
      (await pay(randomUserId(), 'test')).status === 200 ? true : undefined,
    );

    await setOption(SETTING_KEYS.testPaymentEnabled, 'false');
    const refused = await eventually('test top-ups off', async () => {
      const answer = await pay(randomUserId(), 'test');
      return answer.status === 400 ? answer : undefined;
    });
    expect(refused.body.message).toBe('Этот способ оплаты сейчас недоступен');
    await setOption(SETTING_KEYS.testPaymentEnabled, '');
    // TOLLGATE_PAYMENT_TEST is false here: with the setting cleared, the configuration refuses too.
    expect((await pay(randomUserId(), 'test')).status).toBe(400);
  });
});
