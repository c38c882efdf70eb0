import { randomUUID } from 'node:crypto';
import {
  ACCOUNT_SET_QUOTA_CALL,
  adminPaymentPageSchema,
  adminPaymentViewSchema,
  Role,
  servicePath,
  TOPICS,
  type AdminPaymentView,
  type AuditRecorded,
} from '@tollgate/contracts';
import {
  eventually,
  INFRASTRUCTURES,
  randomUserId,
  startFakeCbr,
  startFakeCrypto,
  startFakeYookassa,
  type FakeCbr,
  type FakeCrypto,
  type FakeYookassa,
} from '@tollgate/testing';
import { BillingHarness, providersEnv, type Answer, type Billing } from './billing-harness';
import { aPaymentRequest } from './builders';

jest.setTimeout(120_000);

/** 1000 RUB at 80 RUB per dollar: 12.5 dollars. */
const RATE = '80,0000';
const QUOTA = 6_250_000;

/**
 * Operators' payments: every user's payments with filters, one payment with its refunds, and
 * refunds through the provider that take back the balance's share, once, never more than the
 * user still holds; a provider's partial refund notification does the same.
 */
describe.each(INFRASTRUCTURES)('admin payments and refunds on %s infrastructure', (kind) => {
  let cbr: FakeCbr;
  let yookassa: FakeYookassa;
  let crypto: FakeCrypto;
  let billing: Billing;
  const harness = new BillingHarness(kind, 'billing-admin-payments-it', {
    record: [TOPICS.billingBalance, TOPICS.auditRecorded],
    env: () => providersEnv({ cbr, yookassa, crypto }),
  });
  const operator = randomUserId();

  const call = (
    path: string,
    options: { body?: unknown; role?: Role; userId?: number } = {},
  ): Promise<Answer> => {
    const caller = billing.as(options.userId ?? operator, options.role ?? Role.Admin);
    return options.body === undefined ? caller.get(path) : caller.post(path, options.body);
  };
  const refund = (id: number, body: Record<string, unknown>) => call(`/api/payment/${id}/refund`, { body });
  const payment = async (id: number) =>
    adminPaymentViewSchema.parse((await call(`/api/payment/${id}`)).body.data);
  /** The user's balance as billing last published it (the database is billing's alone while it runs). */
  const latestBalance = (userId: number): number | undefined =>
    harness
      .balancesOf(userId)
      .sort((a, b) => a.version - b.version)
      .at(-1)?.quota;
  const balanceOf = (userId: number, expected: number) =>
    eventually(`balance ${expected} of user ${userId}`, async () =>
      latestBalance(userId) === expected ? expected : undefined,
    ).catch(() => latestBalance(userId));

  /** A user's paid top-up of `amount` rubles by YooKassa, settled by its notification. */
  async function paidTopUp(userId: number, amount = '1000'): Promise<{ id: number; providerId: string }> {
    const created = await call('/api/user/payment', {
      userId,
      role: Role.User,
      body: aPaymentRequest({ amount, provider: 'yookassa' }),
    });
    expect(created.status).toBe(200);
    const providerPayment = yookassa.payments().at(-1)!;
    yookassa.setStatus(providerPayment.id, 'succeeded');
    const settled = await webhook(yookassa.notification('payment.succeeded', providerPayment.id));
    expect(settled.body.data).toMatchObject({ status: 'success', changed: true });
    return { id: (created.body.data as { id: number }).id, providerId: providerPayment.id };
  }
  const webhook = (body: unknown) => billing.anonymous().post('/api/user/payment/webhook/yookassa', body);

  beforeAll(async () => {
    await harness.open();
    [cbr, yookassa, crypto] = await Promise.all([startFakeCbr(RATE), startFakeYookassa(), startFakeCrypto()]);
    billing = await harness.start();
  });

  afterAll(async () => {
    await harness.close();
    await Promise.all([cbr?.close(), yookassa?.close(), crypto?.close()]);
  });

  it('lists every user’s payments newest first, filtered by user, status and provider', async () => {
    const [anna, boris] = [randomUserId(), randomUserId()];
    const annaPaid = await paidTopUp(anna);
    const borisPending = await call('/api/user/payment', {
      userId: boris,
      role: Role.User,
      body: { amount: '500', provider: 'crypto', email: 'boris@example.com' },
    });
    expect(borisPending.status).toBe(200);

    const all = adminPaymentPageSchema.parse((await call('/api/payment/?p=1&page_size=100')).body.data);
    const annas = adminPaymentPageSchema.parse((await call(`/api/payment/?user_id=${anna}`)).body.data);
    const pendingCrypto = adminPaymentPageSchema.parse(
      (await call(`/api/payment/?status=pending&provider=crypto&user_id=${boris}`)).body.data,
    );
    const noneSuccessful = adminPaymentPageSchema.parse(
      (await call(`/api/payment/?status=success&user_id=${boris}`)).body.data,
    );

    expect(all.items[0]!.user_id).toBe(boris);
    expect(all.items.map((item) => item.id)).toEqual(expect.arrayContaining([annaPaid.id]));
    expect(annas.items).toEqual([
      expect.objectContaining({
        id: annaPaid.id,
        user_id: anna,
        provider: 'yookassa',
        provider_payment_id: annaPaid.providerId,
        status: 'success',
        amount: '1000',
        quota: QUOTA,
        refunded_amount: '0',
        refundable_amount: '1000',
        refunds: [],
      }),
    ]);
    expect(pendingCrypto.items.map((item) => [item.user_id, item.status, item.refundable_amount])).toEqual([
      [boris, 'pending', '0'],
    ]);
    expect(noneSuccessful.total).toBe(0);
    const refused = await Promise.all([
      call('/api/payment/', { role: Role.User }),
      call(`/api/payment/${annaPaid.id}`, { role: Role.User }),
      refund(annaPaid.id, { amount: '1', reason: 'x' }).then(() =>
        call(`/api/payment/${annaPaid.id}/refund`, { role: Role.User, body: { amount: '1', reason: 'x' } }),
      ),
      call('/api/payment/?status=paid'),
      call('/api/payment/999999'),
    ]);
    expect(refused.map((answer) => answer.status)).toEqual([403, 403, 403, 400, 404]);
  });

  it('refunds part through YooKassa, taking back its share of the balance, then the rest, once per key', async () => {
    const user = randomUserId();
    const paid = await paidTopUp(user);
    const key = randomUUID();

    const partial = await refund(paid.id, {
      amount: '250.50',
      reason: 'double charge',
      idempotency_key: key,
    });
    const repeated = await refund(paid.id, {
      amount: '250.50',
      reason: 'double charge',
      idempotency_key: key,
    });
    const afterPartial = await balanceOf(user, QUOTA - Math.floor((QUOTA * 25_050) / 100_000));
    const tooMuch = await refund(paid.id, { amount: '749.51', reason: 'too much' });
    const rest = await refund(paid.id, { amount: '749.50', reason: 'closing the account' });
    const again = await refund(paid.id, { amount: '1', reason: 'once more' });

    expect(partial).toMatchObject({ status: 200, body: { success: true, message: 'Возвращено' } });
    const share = Math.floor((QUOTA * 25_050) / 100_000);
    expect(adminPaymentViewSchema.parse(partial.body.data)).toMatchObject({
      status: 'success',
      refunded_amount: '250.5',
      refunded_quota: share,
      refundable_amount: '749.5',
      refunds: [
        expect.objectContaining({
          amount: '250.5',
          quota: share,
          reason: 'double charge',
          source: 'operator',
          actor_id: operator,
        }),
      ],
    });
    expect(repeated).toMatchObject({ status: 200, body: { message: 'Уже возвращено с этим ключом' } });
    expect(afterPartial).toBe(QUOTA - share);
    expect(tooMuch).toMatchObject({
      status: 400,
      body: { success: false, message: 'amount: вернуть можно не больше 749.5 ₽' },
    });
    expect(rest.status).toBe(200);
    expect(adminPaymentViewSchema.parse(rest.body.data)).toMatchObject({
      status: 'refunded',
      refunded_amount: '1000',
      refunded_quota: QUOTA,
      refundable_amount: '0',
    });
    expect(again).toMatchObject({
      status: 409,
      body: { message: 'Платёж уже возвращён полностью' },
    });
    expect(await balanceOf(user, 0)).toBe(0);
    const providerRefunds = yookassa.refunds().filter((item) => item.payment_id === paid.providerId);
    expect(providerRefunds.map((item) => item.amount.value)).toEqual(['250.50', '749.50']);

    // YooKassa then notifies the shop of both refunds: they are the ones already recorded.
    for (const made of providerRefunds) {
      const notified = await webhook(yookassa.notification('refund.succeeded', made.id));
      expect(notified.body.data).toEqual({ status: 'refunded', changed: false });
    }
    expect(latestBalance(user)).toBe(0);
    const audit = await billing.ledgerAudit();
    expect(audit.body).toEqual({ success: true, message: '', data: [] });
    const events = await eventually('both refunds in the audit trail', async () => {
      const found = harness
        .recorder(TOPICS.auditRecorded)
        .values<AuditRecorded>(
          (value) => value.target_kind === 'payment' && value.target_id === String(paid.id),
        );
      return found.length === 2 ? found : undefined;
    });
    expect(events.map((event) => [event.action, event.actor_id, event.after?.['refund_amount']])).toEqual([
      ['payment.refund', operator, '250.5'],
      ['payment.refund', operator, '749.5'],
    ]);
  });

  it('refuses to refund what the user has spent, writing nothing and asking YooKassa for nothing', async () => {
    const user = randomUserId();
    const paid = await paidTopUp(user);
    const spent = await billing
      .asService(ACCOUNT_SET_QUOTA_CALL)
      .send(ACCOUNT_SET_QUOTA_CALL.method, servicePath(ACCOUNT_SET_QUOTA_CALL, { userId: user }), {
        quota: 1_000_000,
        idempotency_key: randomUUID(),
        actor_id: operator,
      });
    expect(spent.status).toBe(200);
    const refundsBefore = yookassa.refunds().length;

    const refused = await refund(paid.id, { amount: '500', reason: 'unhappy' });
    const fits = await refund(paid.id, { amount: '100', reason: 'partly unhappy' });

    expect(refused).toMatchObject({
      status: 409,
      body: {
        success: false,
        message: `Пользователь уже потратил эти средства: возврат списывает ${QUOTA / 2} квоты, а на балансе 1000000`,
      },
    });
    expect(fits.status).toBe(200);
    expect(yookassa.refunds().length).toBe(refundsBefore + 1);
    expect(await balanceOf(user, 1_000_000 - QUOTA / 10)).toBe(1_000_000 - QUOTA / 10);
    expect(await payment(paid.id)).toMatchObject({ refunded_amount: '100', status: 'success' });
  });

  it('takes back the share of a partial refund made in YooKassa’s back office, once', async () => {
    const user = randomUserId();
    const paid = await paidTopUp(user, '2000');
    const made = yookassa.refund(paid.providerId, '500.00');

    const first = await webhook(yookassa.notification('refund.succeeded', made.id));
    const replay = await webhook(yookassa.notification('refund.succeeded', made.id));

    expect(first.body.data).toEqual({ status: 'success', changed: true });
    expect(replay.body.data).toEqual({ status: 'success', changed: false });
    const view: AdminPaymentView = await payment(paid.id);
    expect(view).toMatchObject({
      refunded_amount: '500',
      refunded_quota: (QUOTA * 2) / 4,
      refunds: [expect.objectContaining({ source: 'provider', provider_refund_id: made.id, actor_id: null })],
    });
    expect(await balanceOf(user, QUOTA * 2 - (QUOTA * 2) / 4)).toBe(QUOTA * 2 - (QUOTA * 2) / 4);
  });

  it('refuses refunds the provider cannot make here, and bad requests, changing nothing', async () => {
    const user = randomUserId();
    const created = await call('/api/user/payment', {
      userId: user,
      role: Role.User,
      body: { amount: '1000', provider: 'crypto', email: 'payer@example.com' },
    });
    const invoice = crypto.invoices().at(-1)!;
    await billing.anonymous().post('/api/user/payment/webhook/crypto', crypto.settle(invoice.uuid, 'paid'));
    const id = (created.body.data as { id: number }).id;
    const paid = await paidTopUp(user);

    const answers = await Promise.all([
      refund(id, { amount: '100', reason: 'crypto' }),
      refund(paid.id, { amount: '0', reason: 'nothing' }),
      refund(paid.id, { amount: '-5', reason: 'negative' }),
      refund(paid.id, { amount: '10.001', reason: 'fraction of a kopeck' }),
      refund(paid.id, { amount: '10' }),
      refund(paid.id, { amount: '10', reason: '   ' }),
      refund(paid.id, { amount: '10', reason: 'x', extra: true }),
    ]);

    expect(answers.map((answer) => answer.status)).toEqual([409, 400, 400, 400, 400, 400, 400]);
    expect(answers[0]!.body.message).toMatch(/^У crypto здесь нет API возвратов/);
    expect(await payment(paid.id)).toMatchObject({ refunded_amount: '0', refunds: [] });
    expect(await payment(id)).toMatchObject({ status: 'success', refunded_amount: '0' });
  });
});
