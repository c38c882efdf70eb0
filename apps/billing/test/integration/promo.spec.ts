import {
  INFRASTRUCTURES,
  randomUserId,
  startFakeCbr,
  startFakeYookassa,
  withDatabase,
  type FakeCbr,
  type FakeYookassa,
} from '@tollgate/testing';
import { BillingHarness, providersEnv, type Answer, type Billing } from './billing-harness';
import { aPaymentRequest } from './builders';

/** SPEC §5: the one answer, in Russian by default, for any promo code that cannot be used. */
const PROMO_INVALID_MESSAGE = 'Промокод недействителен';

jest.setTimeout(90_000);

describe.each(INFRASTRUCTURES)('billing promo codes on %s infrastructure', (kind) => {
  let cbr: FakeCbr;
  let yookassa: FakeYookassa;
  const admin = randomUserId();
  const harness = new BillingHarness(kind, 'billing-promo-it', {
    env: () => ({ ...providersEnv({ cbr, yookassa }), TOLLGATE_PAYMENT_TEST: 'true' }),
  });

  const createPromo = (billing: Billing, promo: Record<string, unknown>) =>
    billing.asAdmin(admin).post('/api/promo', promo);

  const testPayment = (billing: Billing, userId: number, code: string) =>
    billing.asUser(userId).post('/api/user/payment', aPaymentRequest({ promo_code: code }));

  beforeAll(async () => {
    await harness.open();
    cbr = await startFakeCbr('80,0000');
    yookassa = await startFakeYookassa();
  });

  afterAll(async () => {
    await harness.close();
    await cbr?.close();
    await yookassa?.close();
  });

  it('lets admins create, list, change and delete codes, unique whatever the case, and users validate them', async () => {
    const database = await harness.createDatabase();
    const user = randomUserId();
    const outcome = await harness.run(database, async (billing) => {
      const adminCaller = billing.asAdmin(admin);
      const userCaller = billing.asUser(user);
      const created = await createPromo(billing, {
        code: 'Spring25',
        type: 'percent',
        value: 25,
        max_uses: 10,
      });
      const id = created.body.data?.['id'];
      const duplicate = await createPromo(billing, { code: 'SPRING25', type: 'fixed', value: '100' });
      const byUser = await userCaller.post('/api/promo', { code: 'MINE', type: 'fixed', value: '1' });
      const valid = await userCaller.post('/api/promo/validate', { code: 'spring25' });
      const updated = await adminCaller.put(`/api/promo/${id}`, { active: false });
      const inactive = await userCaller.post('/api/promo/validate', { code: 'SPRING25' });
      const list = await adminCaller.get('/api/promo?p=1&page_size=10');
      const deleted = await adminCaller.delete(`/api/promo/${id}`);
      const recreated = await createPromo(billing, { code: 'spring25', type: 'fixed', value: '50' });
      const unknown = await userCaller.post('/api/promo/validate', { code: 'NOPE' });
      return { created, duplicate, byUser, valid, updated, inactive, list, deleted, recreated, unknown };
    });

    expect(outcome.created.body.data).toMatchObject({
      code: 'Spring25',
      type: 'percent',
      value: '25',
      max_uses: 10,
      per_user_limit: 1,
      min_amount: '0',
      active: true,
      used_count: 0,
    });
    expect(outcome.duplicate.status).toBe(409);
    expect(outcome.byUser.status).toBe(403);
    expect(outcome.valid.body).toEqual({
      success: true,
      message: 'Бонус +25% к пополнению',
      data: expect.objectContaining({ valid: true, code: 'Spring25', type: 'percent', value: '25' }),
    });
    expect(outcome.updated.body.data).toMatchObject({ active: false });
    expect(outcome.inactive.body).toMatchObject({ success: false, message: PROMO_INVALID_MESSAGE });
    expect(outcome.list.body.data).toMatchObject({ total: 1, items: [{ code: 'Spring25' }] });
    expect(outcome.deleted.status).toBe(200);
    expect(outcome.recreated.status).toBe(200);
    expect(outcome.unknown.body).toMatchObject({
      success: false,
      message: PROMO_INVALID_MESSAGE,
      data: { valid: false },
    });
  });

  it('a single-use code used by 20 concurrent payments gives its bonus once, and one user never beyond their limit; the ledger still adds up', async () => {
    const database = await harness.createDatabase();
    const users = Array.from({ length: 20 }, () => randomUserId());
    const oneUser = randomUserId();
    const outcome = await harness.run(database, async (billing) => {
      await createPromo(billing, {
        code: 'ONCE',
        type: 'percent',
        value: '10',
        max_uses: 1,
        per_user_limit: 1,
      });
      await createPromo(billing, {
        code: 'TWICE-EACH',
        type: 'fixed',
        value: '80',
        max_uses: 0,
        per_user_limit: 2,
      });
      const once = await Promise.all(users.map((userId) => testPayment(billing, userId, 'once')));
      const perUser = await Promise.all(
        Array.from({ length: 6 }, () => testPayment(billing, oneUser, 'TWICE-EACH')),
      );
      const audit = await billing.ledgerAudit();
      return { once, perUser, audit };
    });

    const succeeded = (answers: Answer[]) => answers.filter((answer) => answer.status === 200);
    const refused = (answers: Answer[]) => answers.filter((answer) => answer.status !== 200);
    expect(succeeded(outcome.once)).toHaveLength(1);
    expect(succeeded(outcome.once)[0]!.body.data).toMatchObject({
      status: 'test_success',
      quota: 6_250_000,
      bonus_quota: 625_000,
    });
    expect(refused(outcome.once).map((answer) => [answer.status, answer.body.message])).toEqual(
      Array(19).fill([400, PROMO_INVALID_MESSAGE]),
    );
    expect(succeeded(outcome.perUser)).toHaveLength(2);
    expect(outcome.audit.body).toEqual({ success: true, message: '', data: [] });

    const counts = await withDatabase(database, (query) =>
      query<{ code: string; used_count: number; bonuses: string }>(
        `select c.code, c.used_count,
           (select count(*) from ledger_entries e join payments p on e.idempotency_key = 'payment:' || p.id || ':promo_bonus'
             where p.promo_id = c.id) as bonuses
         from promo_codes c order by c.code`,
      ),
    );
    expect(counts).toEqual([
      { code: 'ONCE', used_count: 1, bonuses: '1' },
      { code: 'TWICE-EACH', used_count: 2, bonuses: '2' },
    ]);
  });

  it('a pending payment holds its use of a single-use code, and gives it back when the payer cancels', async () => {
    const database = await harness.createDatabase();
    const [first, second] = [randomUserId(), randomUserId()];
    const outcome = await harness.run(database, async (billing) => {
      await createPromo(billing, { code: 'HOLD', type: 'fixed', value: '80', max_uses: 1 });
      const validate = (userId: number) =>
        billing.asUser(userId).post('/api/promo/validate', { code: 'HOLD' });
      const pending = await billing
        .asUser(first)
        .post('/api/user/payment', aPaymentRequest({ provider: 'yookassa', promo_code: 'hold' }));
      const whilePending = await validate(second);
      const providerPayment = yookassa.payments().at(-1)!;
      yookassa.setStatus(providerPayment.id, 'canceled');
      const canceled = await billing
        .anonymous()
        .post(
          '/api/user/payment/webhook/yookassa',
          yookassa.notification('payment.canceled', providerPayment.id),
        );
      const afterCancel = await validate(second);
      return { pending, whilePending, canceled, afterCancel };
    });

    expect(outcome.pending.body.data).toMatchObject({ status: 'pending', bonus_quota: 500_000 });
    expect(outcome.whilePending.body).toMatchObject({ success: false, message: PROMO_INVALID_MESSAGE });
    expect(outcome.canceled.body.data).toEqual({ status: 'canceled', changed: true });
    expect(outcome.afterCancel.body).toMatchObject({ success: true, data: { valid: true } });
  });
});
