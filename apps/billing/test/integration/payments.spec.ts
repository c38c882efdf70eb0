import { randomBytes } from 'node:crypto';
import { Role } from '@tollgate/contracts';
import type { TestDatabase } from '@tollgate/persistence';
import { INTERNAL_IDENTITY_HEADER, signInternalToken } from '@tollgate/platform';
import type { Env } from '@tollgate/runtime';
import {
  getJson,
  INFRASTRUCTURES,
  openInfrastructure,
  randomUserId,
  startFakeCbr,
  startFakeCrypto,
  startFakeYookassa,
  waitUntilReady,
  withDatabase,
  type FakeCbr,
  type FakeCrypto,
  type FakeYookassa,
  type TestInfrastructureWithDatabase,
} from '@tollgate/testing';
import { startBilling } from '../../src';

jest.setTimeout(120_000);

interface JsonAnswer {
  status: number;
  body: { success: boolean; message: string; data?: Record<string, unknown> };
}

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
  let infra: TestInfrastructureWithDatabase;
  let cbr: FakeCbr;
  let yookassa: FakeYookassa;
  let crypto: FakeCrypto;
  const secret = randomBytes(32).toString('hex');

  const billingEnv = (database: TestDatabase): Env => ({
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'error',
    DATABASE_URL: database.url,
    TOLLGATE_INTERNAL_TOKEN_SECRET: secret,
    CBR_DAILY_URL: cbr.dailyUrl,
    YOOKASSA_API_URL: yookassa.apiUrl,
    YOOKASSA_SHOP_ID: yookassa.shopId,
    YOOKASSA_SECRET_KEY: yookassa.secretKey,
    CRYPTO_API_URL: crypto.apiUrl,
    CRYPTO_MERCHANT_ID: crypto.merchantId,
    CRYPTO_API_KEY: crypto.apiKey,
  });

  const runBilling = async <T>(
    database: TestDatabase,
    whileRunning: (url: string) => Promise<T>,
  ): Promise<T> => {
    const billing = await startBilling(billingEnv(database), infra.runtime);
    try {
      await waitUntilReady(billing.url);
      return await whileRunning(billing.url);
    } finally {
      await billing.close();
    }
  };

  const identity = async (userId: number, role = Role.User) => ({
    [INTERNAL_IDENTITY_HEADER]: await signInternalToken({ userId, role, via: 'session' }, secret),
  });

  const post = async (
    url: string,
    body: unknown,
    headers: Record<string, string> = {},
  ): Promise<JsonAnswer> => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as JsonAnswer['body'] };
  };

  const pay = async (url: string, userId: number, provider: 'yookassa' | 'crypto') =>
    post(
      `${url}/api/user/payment`,
      { amount: AMOUNT, provider, email: 'payer@example.com', promo_code: '' },
      await identity(userId),
    );

  const ledgerOf = (database: TestDatabase, userId: number) =>
    withDatabase(database, (query) =>
      query<LedgerRow>(
        'select kind, amount, idempotency_key from ledger_entries where user_id = ? order by id',
        [userId],
      ),
    );

  const audit = async (url: string) =>
    getJson<JsonAnswer['body']>(`${url}/api/log/ledger-audit`, await identity(randomUserId(), Role.Admin));

  beforeAll(async () => {
    infra = await openInfrastructure(kind, 'billing-payments-it');
    [cbr, yookassa, crypto] = await Promise.all([startFakeCbr(RATE), startFakeYookassa(), startFakeCrypto()]);
  });

  afterAll(async () => {
    await Promise.all([cbr?.close(), yookassa?.close(), crypto?.close()]);
    await infra?.close();
  });

  it('YooKassa: a forged notification credits nothing, 50 parallel genuine ones credit once, a partial refund debits its share, the rest the remainder, and replays change nothing', async () => {
    const database = await infra.createDatabase();
    const userId = randomUserId();

    const outcome = await runBilling(database, async (url) => {
      const created = await pay(url, userId, 'yookassa');
      const providerPayment = yookassa.payments().at(-1)!;
      const paymentId = created.body.data?.['id'];

      // Claims success while YooKassa still says pending: reading the payment back refuses it.
      const forged = await post(`${url}/api/user/payment/webhook/yookassa`, {
        ...(yookassa.notification('payment.succeeded', providerPayment.id) as object),
        object: { ...providerPayment, status: 'succeeded', paid: true },
      });
      const unknown = await post(
        `${url}/api/user/payment/webhook/yookassa`,
        yookassa.notification('payment.succeeded', '2f8e3c1a-000f-5000-8000-1a2b3c4d5e6f'),
      );

      yookassa.setStatus(providerPayment.id, 'succeeded');
      const notification = yookassa.notification('payment.succeeded', providerPayment.id);
      const parallel = await Promise.all(
        Array.from({ length: 50 }, () => post(`${url}/api/user/payment/webhook/yookassa`, notification)),
      );

      const partial = yookassa.refund(providerPayment.id, '100.00');
      const partialRefund = await post(
        `${url}/api/user/payment/webhook/yookassa`,
        yookassa.notification('refund.succeeded', partial.id),
      );
      const partialReplay = await post(
        `${url}/api/user/payment/webhook/yookassa`,
        yookassa.notification('refund.succeeded', partial.id),
      );
      const refund = yookassa.refund(providerPayment.id);
      const refunded = await post(
        `${url}/api/user/payment/webhook/yookassa`,
        yookassa.notification('refund.succeeded', refund.id),
      );
      const replay = await post(`${url}/api/user/payment/webhook/yookassa`, notification);
      const logs = await getJson<JsonAnswer['body']>(
        `${url}/api/user/payment/logs?p=1&page_size=10`,
        await identity(userId),
      );
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
        audit: await audit(url),
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
    const database = await infra.createDatabase();
    const userId = randomUserId();

    const outcome = await runBilling(database, async (url) => {
      const created = await pay(url, userId, 'crypto');
      const invoice = crypto.invoices().at(-1)!;
      const paid = crypto.settle(invoice.uuid, 'paid');
      const webhook = (body: unknown) => post(`${url}/api/user/payment/webhook/crypto`, body);
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
        audit: await audit(url),
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
    const database = await infra.createDatabase();
    const userId = randomUserId();
    const answers = await runBilling(database, async (url) => {
      const headers = await identity(userId);
      return Promise.all([
        post(
          `${url}/api/user/payment`,
          { amount: '99.99', provider: 'yookassa', email: 'a@example.com' },
          headers,
        ),
        post(`${url}/api/user/payment`, { amount: '500', provider: 'yookassa', email: '' }, headers),
        post(`${url}/api/user/payment`, { amount: '500', provider: 'test', email: 'a@example.com' }, headers),
      ]);
    });
    expect(answers.map((answer) => answer.status)).toEqual([400, 400, 400]);
    expect(answers[0]!.body.message).toBe('Сумма пополнения должна быть от 100 до 500000 ₽');
    expect(answers[2]!.body.message).toBe('Этот способ оплаты сейчас недоступен');
  });
});
