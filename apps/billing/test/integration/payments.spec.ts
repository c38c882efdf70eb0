import { KEY_USAGE_CALL, PAYMENT_METHODS_CALL } from '@tollgate/contracts';
import type { TestDatabase } from '@tollgate/persistence';
import {
  INFRASTRUCTURES,
  randomUserId,
  startFakeCbr,
  startFakeCrypto,
  startFakeYookassa,
  withDatabase,
  type FakeCbr,
  type FakeCrypto,
  type FakeYookassa,
} from '@tollgate/testing';
import { BillingHarness, providersEnv, type Billing } from './billing-harness';
import { aPaymentRequest } from './builders';

jest.setTimeout(120_000);

interface LedgerRow {
  kind: string;
  amount: string;
  idempotency_key: string;
}

/** 1000 RUB at 80 RUB per dollar: 12.5 dollars. */
const AMOUNT = '1000';
const RATE = '80,0000';
const QUOTA = 6_250_000;

describe.each(INFRASTRUCTURES)('billing payments on %s infrastructure', (kind) => {
  let cbr: FakeCbr;
  let yookassa: FakeYookassa;
  let crypto: FakeCrypto;
  const harness = new BillingHarness(kind, 'billing-payments-it', {
    env: () => providersEnv({ cbr, yookassa, crypto }),
  });

  const pay = (billing: Billing, userId: number, provider: 'yookassa' | 'crypto') =>
    billing
      .asUser(userId)
      .post('/api/user/payment', aPaymentRequest({ amount: AMOUNT, provider, promo_code: '' }));

  const ledgerOf = (database: TestDatabase, userId: number) =>
    withDatabase(database, (query) =>
      query<LedgerRow>(
        'select kind, amount, idempotency_key from ledger_entries where user_id = ? order by id',
        [userId],
      ),
    );

  beforeAll(async () => {
    await harness.open();
    [cbr, yookassa, crypto] = await Promise.all([startFakeCbr(RATE), startFakeYookassa(), startFakeCrypto()]);
  });

  afterAll(async () => {
    await harness.close();
    await Promise.all([cbr?.close(), yookassa?.close(), crypto?.close()]);
  });

  it('YooKassa: a forged notification credits nothing, 50 parallel genuine ones credit once, a partial refund debits its share, the rest the remainder, and replays change nothing', async () => {
    const database = await harness.createDatabase();
    const userId = randomUserId();

    const outcome = await harness.run(database, async (billing) => {
      const yookassaWebhook = (body: unknown) =>
        billing.anonymous().post('/api/user/payment/webhook/yookassa', body);
      const created = await pay(billing, userId, 'yookassa');
      const providerPayment = yookassa.payments().at(-1)!;
      const paymentId = created.body.data?.['id'];

      // Claims success while YooKassa still says pending: reading the payment back refuses it.
      const forged = await yookassaWebhook({
        ...(yookassa.notification('payment.succeeded', providerPayment.id) as object),
        object: { ...providerPayment, status: 'succeeded', paid: true },
      });
      const unknown = await yookassaWebhook(
        yookassa.notification('payment.succeeded', '2f8e3c1a-000f-5000-8000-1a2b3c4d5e6f'),
      );

      yookassa.setStatus(providerPayment.id, 'succeeded');
      const notification = yookassa.notification('payment.succeeded', providerPayment.id);
      const parallel = await Promise.all(Array.from({ length: 50 }, () => yookassaWebhook(notification)));

      const partial = yookassa.refund(providerPayment.id, '100.00');
      const partialRefund = await yookassaWebhook(yookassa.notification('refund.succeeded', partial.id));
      const partialReplay = await yookassaWebhook(yookassa.notification('refund.succeeded', partial.id));
      const refund = yookassa.refund(providerPayment.id);
      const refunded = await yookassaWebhook(yookassa.notification('refund.succeeded', refund.id));
      const replay = await yookassaWebhook(notification);
      const logs = await billing.asUser(userId).get('/api/user/payment/logs?p=1&page_size=10');
      return {
        created,
        providerPayment,
        paymentId,
        forged,
        unknown,
        parallel,
        partialRefund,
        partialReplay,
        partial,
        refund,
        refunded,
        replay,
        logs,
        audit: await billing.ledgerAudit(),
      };
    });

    expect(outcome.created).toEqual({
      status: 200,
      body: {
        success: true,
        message: '',
        data: expect.objectContaining({
          status: 'pending',
          provider: 'yookassa',
          amount: '1000',
          usd_rub: '80',
          quota: QUOTA,
          bonus_quota: 0,
          pay_url: expect.stringContaining(`/checkout/${outcome.providerPayment.id}`),
        }),
      },
    });
    expect(outcome.providerPayment.request).toMatchObject({
      amount: { value: '1000.00', currency: 'RUB' },
      capture: true,
      confirmation: { type: 'redirect' },
      receipt: { customer: { email: 'payer@example.com' } },
    });
    expect(outcome.forged.body.data).toEqual({ status: 'pending', changed: false });
    expect(outcome.unknown.status).toBe(401);
    expect(outcome.parallel.map((answer) => answer.status)).toEqual(Array(50).fill(200));
    expect(outcome.parallel.filter((answer) => answer.body.data?.['changed'] === true)).toHaveLength(1);
    expect(outcome.partialRefund.body.data).toEqual({ status: 'success', changed: true });
    expect(outcome.partialReplay.body.data).toEqual({ status: 'success', changed: false });
    expect(outcome.refund.amount.value).toBe('900.00');
    expect(outcome.refunded.body.data).toEqual({ status: 'refunded', changed: true });
    expect(outcome.replay.body.data).toEqual({ status: 'refunded', changed: false });
    expect(outcome.logs.body.data).toMatchObject({
      total: 1,
      items: [
        { id: outcome.paymentId, amount: '1000', status: 'refunded', provider: 'yookassa', quota: QUOTA },
      ],
    });
    expect(outcome.audit.body).toEqual({ success: true, message: '', data: [] });
    expect(await ledgerOf(database, userId)).toEqual([
      { kind: 'top_up', amount: String(QUOTA), idempotency_key: `payment:${outcome.paymentId}:top_up` },
      {
        kind: 'refund',
        amount: String(-QUOTA / 10),
        idempotency_key: `payment:${outcome.paymentId}:refund:provider:${outcome.partial.id}`,
      },
      {
        kind: 'refund',
        amount: String(-(QUOTA - QUOTA / 10)),
        idempotency_key: `payment:${outcome.paymentId}:refund:provider:${outcome.refund.id}`,
      },
    ]);
  });

  it('crypto: a webhook signed with another key or with a changed amount credits nothing; the signed one credits once, replays too', async () => {
    const database = await harness.createDatabase();
    const userId = randomUserId();

    const outcome = await harness.run(database, async (billing) => {
      const created = await pay(billing, userId, 'crypto');
      const invoice = crypto.invoices().at(-1)!;
      const paid = crypto.settle(invoice.uuid, 'paid');
      const webhook = (body: unknown) => billing.anonymous().post('/api/user/payment/webhook/crypto', body);
      const forged = await webhook(crypto.sign(paid, 'not-the-merchant-key'));
      const tampered = await webhook({ ...paid, amount: '100000.00' });
      const unsigned = await webhook({ ...paid, sign: undefined });
      const genuine = await Promise.all(Array.from({ length: 10 }, () => webhook(paid)));
      const replay = await webhook(paid);
      const cancelAfterwards = await webhook(crypto.settle(invoice.uuid, 'cancel'));
      return {
        created,
        invoice,
        forged,
        tampered,
        unsigned,
        genuine,
        replay,
        cancelAfterwards,
        audit: await billing.ledgerAudit(),
      };
    });

    expect(outcome.created.body.data).toMatchObject({
      status: 'pending',
      pay_url: expect.stringContaining(outcome.invoice.uuid),
    });
    expect(outcome.invoice).toMatchObject({
      amount: '1000.00',
      currency: 'RUB',
      order_id: `tollgate-${outcome.created.body.data?.['id']}`,
    });
    expect([outcome.forged.status, outcome.tampered.status, outcome.unsigned.status]).toEqual([
      401, 401, 401,
    ]);
    expect(outcome.genuine.filter((answer) => answer.body.data?.['changed'] === true)).toHaveLength(1);
    expect(outcome.genuine.every((answer) => answer.body.data?.['status'] === 'success')).toBe(true);
    expect(outcome.replay.body.data).toEqual({ status: 'success', changed: false });
    expect(outcome.cancelAfterwards.body.data).toEqual({ status: 'success', changed: false });
    expect(outcome.audit.body.data).toEqual([]);
    expect(await ledgerOf(database, userId)).toEqual([
      expect.objectContaining({ kind: 'top_up', amount: String(QUOTA) }),
    ]);
    const events = await withDatabase(database, (query) =>
      query<{ status: string }>(
        `select value->>'status' as status from outbox_messages where topic = 'billing.payment' order by id`,
      ),
    );
    expect(events.map((event) => event.status)).toEqual(['pending', 'success']);
  });

  it('refuses a payment below the minimum, without a receipt e-mail, or by a provider that is not configured', async () => {
    const database = await harness.createDatabase();
    const userId = randomUserId();
    const answers = await harness.run(database, async (billing) => {
      const user = billing.asUser(userId);
      return Promise.all([
        user.post('/api/user/payment', { amount: '99.99', provider: 'yookassa', email: 'a@example.com' }),
        user.post('/api/user/payment', { amount: '500', provider: 'yookassa', email: '' }),
        user.post('/api/user/payment', { amount: '500', provider: 'test', email: 'a@example.com' }),
      ]);
    });
    expect(answers.map((answer) => answer.status)).toEqual([400, 400, 400]);
    expect(answers[0]!.body.message).toBe('Сумма пополнения должна быть от 100 до 500000 ₽');
    expect(answers[2]!.body.message).toBe('Этот способ оплаты сейчас недоступен');
  });

  it('tells admin which card and crypto providers it holds credentials for, to a service token for that call only', async () => {
    const configured = await harness.start();
    const withoutCrypto = await harness.start({ env: { CRYPTO_MERCHANT_ID: '', YOOKASSA_SECRET_KEY: '' } });
    try {
      const path = PAYMENT_METHODS_CALL.path;
      const [both, none, asUser, otherCall] = await Promise.all([
        configured.asService(PAYMENT_METHODS_CALL).get(path),
        withoutCrypto.asService(PAYMENT_METHODS_CALL).get(path),
        configured.asUser(randomUserId()).get(path),
        configured.asService(KEY_USAGE_CALL).get(path),
      ]);
      expect(both.status).toBe(200);
      expect(both.body.data).toEqual({ yookassa: true, crypto: true });
      expect(none.status).toBe(200);
      expect(none.body.data).toEqual({ yookassa: false, crypto: false });
      expect(asUser.status).toBe(401);
      expect(otherCall.status).toBe(401);
    } finally {
      await Promise.all([configured.close(), withoutCrypto.close()]);
    }
  });
});
