import { TOPICS } from '@tollgate/contracts';
import {
  anIdentityUser,
  eventually,
  INFRASTRUCTURES,
  randomUserId,
  startFakeCbr,
  startFakeCrypto,
  type FakeCbr,
  type FakeCrypto,
} from '@tollgate/testing';
import { BillingHarness, providersEnv } from './billing-harness';
import { aPaymentRequest } from './builders';

jest.setTimeout(90_000);

describe.each(INFRASTRUCTURES)('billing affiliate programme on %s infrastructure', (kind) => {
  let cbr: FakeCbr;
  let crypto: FakeCrypto;
  const harness = new BillingHarness(kind, 'billing-affiliate-it', {
    topics: [TOPICS.identityUser],
    record: [TOPICS.billingBalance],
    env: () => ({
      ...providersEnv({ cbr, crypto }),
      TOLLGATE_PAYMENT_TEST: 'true',
      AFFILIATE_REWARD_PERCENT: '10',
      AFFILIATE_MIN_TRANSFER_QUOTA: '500000',
    }),
  });

  beforeAll(async () => {
    await harness.open();
    cbr = await startFakeCbr('100,0000');
    crypto = await startFakeCrypto();
  });

  afterAll(async () => {
    await harness.close();
    await cbr?.close();
    await crypto?.close();
  });

  it("credits the inviter a share of the invitee's paid top-ups as affiliate quota, moves it to the balance above the minimum, and takes it back when a top-up is refunded", async () => {
    const inviter = randomUserId();
    const invitee = randomUserId();
    const billing = await harness.start();
    try {
      const asInviter = billing.asUser(inviter);
      const cryptoWebhook = (body: unknown) =>
        billing.anonymous().post('/api/user/payment/webhook/crypto', body);
      await harness.publishUsers([
        anIdentityUser(inviter),
        { ...anIdentityUser(invitee), inviter_id: inviter },
      ]);
      await eventually('the invitation to be known', async () => {
        const summary = await asInviter.get('/api/user/aff_transfer');
        return summary.body.data?.['invitees'] === 1 ? true : undefined;
      });

      // 1000 RUB at 100 RUB/$ = 5 000 000 units; 10 % = 500 000 units of affiliate quota per paid top-up.
      // Test top-ups (pilots' balances) earn nothing.
      const pay = (provider: 'crypto' | 'test') =>
        billing
          .asUser(invitee)
          .post('/api/user/payment', aPaymentRequest({ provider, email: 'i@example.com' }));
      await pay('test');
      for (let paid = 0; paid < 2; paid += 1) {
        await pay('crypto');
        const paidWebhook = crypto.settle(crypto.invoices().at(-1)!.uuid, 'paid');
        await cryptoWebhook(paidWebhook);
        await cryptoWebhook(paidWebhook);
      }
      const inviterBalance = await eventually('the reward on billing.balance', async () =>
        harness.balancesOf(inviter).find((balance) => balance.aff_history_quota === 1_000_000),
      );
      const tooLittle = await asInviter.post('/api/user/aff_transfer', { quota: 499_999 });
      const tooMuch = await asInviter.post('/api/user/aff_transfer', { quota: 1_000_001 });
      const moved = await asInviter.post('/api/user/aff_transfer', { quota: 600_000 });
      const refund = crypto.settle(crypto.invoices().at(-1)!.uuid, 'refund_paid');
      await cryptoWebhook(refund);
      await cryptoWebhook(refund);
      const summary = await asInviter.get('/api/user/aff_transfer');
      const audit = await billing.ledgerAudit();

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
