import { randomBytes } from 'node:crypto';
import { PROMO_INVALID_MESSAGE, Role } from '@tollgate/contracts';
import type { TestDatabase } from '@tollgate/persistence';
import { INTERNAL_IDENTITY_HEADER, signInternalToken } from '@tollgate/platform';
import type { Env } from '@tollgate/runtime';
import {
  getJson,
  INFRASTRUCTURES,
  openInfrastructure,
  randomUserId,
  startFakeCbr,
  startFakeYookassa,
  waitUntilReady,
  withDatabase,
  type FakeCbr,
  type FakeYookassa,
  type TestInfrastructureWithDatabase,
} from '@tollgate/testing';
import { startBilling } from '../../src';

jest.setTimeout(90_000);

interface Answer {
  status: number;
  body: { success: boolean; message: string; data?: Record<string, unknown> };
}

describe.each(INFRASTRUCTURES)('billing promo codes on %s infrastructure', (kind) => {
  let infra: TestInfrastructureWithDatabase;
  let cbr: FakeCbr;
  let yookassa: FakeYookassa;
  const secret = randomBytes(32).toString('hex');
  const admin = randomUserId();

  const billingEnv = (database: TestDatabase): Env => ({
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'error',
    DATABASE_URL: database.url,
    TOLLGATE_INTERNAL_TOKEN_SECRET: secret,
    CBR_DAILY_URL: cbr.dailyUrl,
    TOLLGATE_PAYMENT_TEST: 'true',
    YOOKASSA_API_URL: yookassa.apiUrl,
    YOOKASSA_SHOP_ID: yookassa.shopId,
    YOOKASSA_SECRET_KEY: yookassa.secretKey,
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

  const as = async (userId: number, role = Role.User) => ({
    [INTERNAL_IDENTITY_HEADER]: await signInternalToken({ userId, role, via: 'session' }, secret),
  });

  const send = async (
    method: string,
    url: string,
    body: unknown,
    headers: Record<string, string>,
  ): Promise<Answer> => {
    const response = await fetch(url, {
      method,
      ...(body === undefined
        ? { headers }
        : { headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Answer['body'] };
  };

  const createPromo = async (url: string, promo: Record<string, unknown>) =>
    send('POST', `${url}/api/promo`, promo, await as(admin, Role.Admin));

  const testPayment = async (url: string, userId: number, code: string) =>
    send(
      'POST',
      `${url}/api/user/payment`,
      { amount: '1000', provider: 'test', email: 'p@example.com', promo_code: code },
      await as(userId),
    );

  beforeAll(async () => {
    infra = await openInfrastructure(kind, 'billing-promo-it');
    cbr = await startFakeCbr('80,0000');
    yookassa = await startFakeYookassa();
  });

  afterAll(async () => {
    await cbr?.close();
    await yookassa?.close();
    await infra?.close();
  });

  it('lets admins create, list, change and delete codes, unique whatever the case, and users validate them', async () => {
    const database = await infra.createDatabase();
    const user = randomUserId();
    const outcome = await runBilling(database, async (url) => {
      const adminHeaders = await as(admin, Role.Admin);
      const created = await createPromo(url, { code: 'Spring25', type: 'percent', value: 25, max_uses: 10 });
      const id = created.body.data?.['id'];
      const duplicate = await createPromo(url, { code: 'SPRING25', type: 'fixed', value: '100' });
      const byUser = await send(
        'POST',
        `${url}/api/promo`,
        { code: 'MINE', type: 'fixed', value: '1' },
        await as(user),
      );
      const valid = await send('POST', `${url}/api/promo/validate`, { code: 'spring25' }, await as(user));
      const updated = await send('PUT', `${url}/api/promo/${id}`, { active: false }, adminHeaders);
      const inactive = await send('POST', `${url}/api/promo/validate`, { code: 'SPRING25' }, await as(user));
      const list = await getJson<Answer['body']>(`${url}/api/promo?p=1&page_size=10`, adminHeaders);
      const deleted = await send('DELETE', `${url}/api/promo/${id}`, undefined, adminHeaders);
      const recreated = await createPromo(url, { code: 'spring25', type: 'fixed', value: '50' });
      const unknown = await send('POST', `${url}/api/promo/validate`, { code: 'NOPE' }, await as(user));
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
    const database = await infra.createDatabase();
    const users = Array.from({ length: 20 }, () => randomUserId());
    const oneUser = randomUserId();
    const outcome = await runBilling(database, async (url) => {
      await createPromo(url, { code: 'ONCE', type: 'percent', value: '10', max_uses: 1, per_user_limit: 1 });
      await createPromo(url, {
        code: 'TWICE-EACH',
        type: 'fixed',
        value: '80',
        max_uses: 0,
        per_user_limit: 2,
      });
      const once = await Promise.all(users.map((userId) => testPayment(url, userId, 'once')));
      const perUser = await Promise.all(
        Array.from({ length: 6 }, () => testPayment(url, oneUser, 'TWICE-EACH')),
      );
      const audit = await getJson(`${url}/api/log/ledger-audit`, await as(admin, Role.Admin));
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
    const database = await infra.createDatabase();
    const [first, second] = [randomUserId(), randomUserId()];
    const outcome = await runBilling(database, async (url) => {
      await createPromo(url, { code: 'HOLD', type: 'fixed', value: '80', max_uses: 1 });
      const validate = async (userId: number) =>
        send('POST', `${url}/api/promo/validate`, { code: 'HOLD' }, await as(userId));
      const pending = await send(
        'POST',
        `${url}/api/user/payment`,
        { amount: '1000', provider: 'yookassa', email: 'p@example.com', promo_code: 'hold' },
        await as(first),
      );
      const whilePending = await validate(second);
      const providerPayment = yookassa.payments().at(-1)!;
      yookassa.setStatus(providerPayment.id, 'canceled');
      const canceled = await send(
        'POST',
        `${url}/api/user/payment/webhook/yookassa`,
        yookassa.notification('payment.canceled', providerPayment.id),
        {},
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
