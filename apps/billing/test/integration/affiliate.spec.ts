import { randomBytes } from 'node:crypto';
import { Role, TOPICS, type BillingBalance } from '@tollgate/contracts';
import type { TestDatabase } from '@tollgate/persistence';
import { INTERNAL_IDENTITY_HEADER, signInternalToken } from '@tollgate/platform';
import type { Env } from '@tollgate/runtime';
import {
  anIdentityUser,
  eventually,
  getJson,
  INFRASTRUCTURES,
  openInfrastructure,
  randomUserId,
  startFakeCbr,
  startFakeCrypto,
  TopicRecorder,
  waitUntilReady,
  type FakeCbr,
  type FakeCrypto,
  type TestInfrastructureWithDatabase,
} from '@tollgate/testing';
import { startBilling } from '../../src';

jest.setTimeout(90_000);

interface Answer {
  status: number;
  body: { success: boolean; message: string; data?: Record<string, unknown> };
}

describe.each(INFRASTRUCTURES)('billing affiliate programme on %s infrastructure', (kind) => {
  let infra: TestInfrastructureWithDatabase;
  let cbr: FakeCbr;
  let crypto: FakeCrypto;
  let balances: TopicRecorder;
  const secret = randomBytes(32).toString('hex');

  const billingEnv = (database: TestDatabase): Env => ({
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'error',
    DATABASE_URL: database.url,
    TOLLGATE_INTERNAL_TOKEN_SECRET: secret,
    CBR_DAILY_URL: cbr.dailyUrl,
    TOLLGATE_PAYMENT_TEST: 'true',
    CRYPTO_API_URL: crypto.apiUrl,
    CRYPTO_MERCHANT_ID: crypto.merchantId,
    CRYPTO_API_KEY: crypto.apiKey,
    AFFILIATE_REWARD_PERCENT: '10',
    AFFILIATE_MIN_TRANSFER_QUOTA: '500000',
  });

  const as = async (userId: number) => ({
    [INTERNAL_IDENTITY_HEADER]: await signInternalToken({ userId, role: Role.User, via: 'session' }, secret),
  });

  const post = async (url: string, body: unknown, headers: Record<string, string>): Promise<Answer> => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Answer['body'] };
  };

  beforeAll(async () => {
    infra = await openInfrastructure(kind, 'billing-affiliate-it');
    await infra.runtime.bus.ensureTopics([TOPICS.identityUser, TOPICS.billingBalance]);
    balances = await TopicRecorder.start(
      infra.runtime.bus,
      TOPICS.billingBalance.name,
      `billing-aff-it.${infra.runId}`,
    );
    cbr = await startFakeCbr('100,0000');
    crypto = await startFakeCrypto();
  });

  afterAll(async () => {
    await balances?.stop();
    await cbr?.close();
    await crypto?.close();
    await infra?.close();
  });

  it("credits the inviter a share of the invitee's paid top-ups as affiliate quota, moves it to the balance above the minimum, and takes it back when a top-up is refunded", async () => {
    const database = await infra.createDatabase();
    const inviter = randomUserId();
    const invitee = randomUserId();
    const billing = await startBilling(billingEnv(database), infra.runtime);
    try {
      await waitUntilReady(billing.url);
      await infra.runtime.bus.publish([
        { topic: TOPICS.identityUser.name, key: String(inviter), value: anIdentityUser(inviter) },
        {
          topic: TOPICS.identityUser.name,
          key: String(invitee),
          value: { ...anIdentityUser(invitee), inviter_id: inviter },
        },
      ]);
      await eventually('the invitation to be known', async () => {
        const summary = await getJson<Answer['body']>(
          `${billing.url}/api/user/aff_transfer`,
          await as(inviter),
        );
        return summary.body.data?.['invitees'] === 1 ? true : undefined;
      });

      // 1000 RUB at 100 RUB/$ = 5 000 000 units; 10 % = 500 000 units of affiliate quota per paid top-up.
      // Test top-ups (pilots' balances) earn nothing.
      const pay = async (provider: 'crypto' | 'test') =>
        post(
          `${billing.url}/api/user/payment`,
          { amount: '1000', provider, email: 'i@example.com' },
          await as(invitee),
        );
      await pay('test');
      for (let paid = 0; paid < 2; paid += 1) {
        await pay('crypto');
        const paidWebhook = crypto.settle(crypto.invoices().at(-1)!.uuid, 'paid');
        await post(`${billing.url}/api/user/payment/webhook/crypto`, paidWebhook, {});
        await post(`${billing.url}/api/user/payment/webhook/crypto`, paidWebhook, {});
      }
      const inviterBalance = await eventually('the reward on billing.balance', async () =>
        balances
          .values<BillingBalance>((balance) => balance.user_id === inviter)
          .find((balance) => balance.aff_history_quota === 1_000_000),
      );
      const tooLittle = await post(
        `${billing.url}/api/user/aff_transfer`,
        { quota: 499_999 },
        await as(inviter),
      );
      const tooMuch = await post(
        `${billing.url}/api/user/aff_transfer`,
        { quota: 1_000_001 },
        await as(inviter),
      );
      const moved = await post(`${billing.url}/api/user/aff_transfer`, { quota: 600_000 }, await as(inviter));
      const refund = crypto.settle(crypto.invoices().at(-1)!.uuid, 'refund_paid');
      await post(`${billing.url}/api/user/payment/webhook/crypto`, refund, {});
      await post(`${billing.url}/api/user/payment/webhook/crypto`, refund, {});
      const summary = await getJson<Answer['body']>(
        `${billing.url}/api/user/aff_transfer`,
        await as(inviter),
      );
      const audit = await getJson<Answer['body']>(`${billing.url}/api/log/ledger-audit`, {
        [INTERNAL_IDENTITY_HEADER]: await signInternalToken(
          { userId: inviter, role: Role.Admin, via: 'session' },
          secret,
        ),
      });

      expect(inviterBalance).toMatchObject({ quota: 0, aff_quota: 1_000_000, aff_history_quota: 1_000_000 });
      expect([tooLittle.status, tooMuch.status]).toEqual([400, 400]);
      expect(tooMuch.body.message).toBe('Недостаточно партнёрской квоты');
      expect(moved.body.data).toEqual({ quota: 600_000, aff_quota: 400_000, transferred: 600_000 });
      // The refunded top-up's reward is taken back, once, even though part of it was moved already.
      expect(summary.body.data).toEqual({
        aff_quota: -100_000,
        aff_history_quota: 500_000,
        invitees: 1,
        reward_percent: '10',
        min_transfer_quota: 500_000,
      });
      expect(audit.body.data).toEqual([]);
    } finally {
      await billing.close();
    }
  });
});
