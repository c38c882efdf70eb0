import { randomBytes } from 'node:crypto';
import { INFRASTRUCTURES, randomUserId, startFakeCbr, type FakeCbr } from '@tollgate/testing';
import { BillingHarness, providersEnv, type Billing, type Caller, type Envelope } from './billing-harness';
import { aPaymentRequest } from './builders';

jest.setTimeout(90_000);

/**
 * Billing answers people in the language their Accept-Language asks for, Russian when it asks for
 * none billing has (or there is no header): the gateway passes the browser's header through.
 */
describe.each(INFRASTRUCTURES)('billing messages in the caller language on %s infrastructure', (kind) => {
  let cbr: FakeCbr;
  let billing: Billing;
  const harness = new BillingHarness(kind, 'billing-messages-it', {
    env: () => ({ ...providersEnv({ cbr }), AFFILIATE_MIN_TRANSFER_QUOTA: '500000' }),
  });
  const CODE = `LANG${randomBytes(4).toString('hex')}`.toUpperCase();

  /** POSTs as `caller`, with `language` as Accept-Language when given. */
  const post = async (caller: Caller, path: string, body: unknown, language?: string) => {
    const response = await caller.fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(language && { 'accept-language': language }) },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Envelope };
  };

  /** The same call by a new user without Accept-Language, in English, and preferring an unknown language. */
  const inEachLanguage = async (path: string, body: unknown) => {
    const [none, english, german] = await Promise.all(
      [undefined, 'en-GB,en;q=0.9', 'de-DE,de;q=0.9'].map((language) =>
        post(billing.asUser(randomUserId()), path, body, language),
      ),
    );
    return { none, english, german };
  };

  beforeAll(async () => {
    await harness.open();
    cbr = await startFakeCbr('100,0000');
    billing = await harness.start();
    const created = await post(billing.asAdmin(), '/api/promo', {
      code: CODE,
      type: 'percent',
      value: '25',
      min_amount: '1000',
    });
    expect(created.status).toBe(200);
  });

  afterAll(async () => {
    await harness.close();
    await cbr?.close();
  });

  it('refuses a payment method that is not configured in the caller language', async () => {
    const answers = await inEachLanguage('/api/user/payment', aPaymentRequest({ provider: 'yookassa' }));
    expect(answers).toEqual({
      none: {
        status: 400,
        body: expect.objectContaining({ message: 'Этот способ оплаты сейчас недоступен' }),
      },
      english: {
        status: 400,
        body: expect.objectContaining({ message: 'This payment method is currently unavailable' }),
      },
      german: {
        status: 400,
        body: expect.objectContaining({ message: 'Этот способ оплаты сейчас недоступен' }),
      },
    });
  });

  it('describes a usable promo code, and refuses an unknown one, in the caller language', async () => {
    const usable = await inEachLanguage('/api/promo/validate', { code: CODE.toLowerCase() });
    expect(usable.none.body).toMatchObject({
      success: true,
      message: 'Бонус +25% к пополнению от 1000 ₽',
      data: { valid: true, description: 'Бонус +25% к пополнению от 1000 ₽' },
    });
    expect(usable.english.body).toMatchObject({
      success: true,
      message: 'Bonus +25% on your top-up of 1000 ₽ or more',
      data: { valid: true, description: 'Bonus +25% on your top-up of 1000 ₽ or more' },
    });

    const unknown = await inEachLanguage('/api/promo/validate', { code: `${CODE}X` });
    expect(unknown.none.body).toMatchObject({
      success: false,
      message: 'Промокод недействителен',
      data: { valid: false, description: 'Промокод недействителен' },
    });
    expect(unknown.english.body).toMatchObject({
      success: false,
      message: 'The promo code is not valid',
      data: { valid: false, description: 'The promo code is not valid' },
    });
    expect(unknown.german.body.message).toBe('Промокод недействителен');
  });

  it('refuses an affiliate transfer below the minimum in the caller language', async () => {
    const answers = await inEachLanguage('/api/user/aff_transfer', { quota: 1 });
    expect(answers.none).toEqual({
      status: 400,
      body: expect.objectContaining({ message: 'Минимальная сумма перевода — 500000 квоты' }),
    });
    expect(answers.english).toEqual({
      status: 400,
      body: expect.objectContaining({ message: 'The minimum transfer is 500000 quota' }),
    });
  });

  it("answers an operator's refusals and a too long log range in the caller language", async () => {
    const admin = billing.asAdmin();
    const put = async (path: string, body: unknown, language?: string) => {
      const response = await admin.fetch(path, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', ...(language && { 'accept-language': language }) },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Envelope };
    };
    const get = async (path: string, language?: string) => {
      const response = await admin.fetch(path, {
        headers: { ...(language && { 'accept-language': language }) },
      });
      return { status: response.status, body: (await response.json()) as Envelope };
    };
    const english = 'en-GB,en;q=0.9';
    const promo = { code: CODE, type: 'fixed', value: '10' };

    expect(await post(admin, '/api/promo', promo)).toMatchObject({
      status: 409,
      body: { message: 'Промокод с таким кодом уже есть' },
    });
    expect(await post(admin, '/api/promo', promo, english)).toMatchObject({
      status: 409,
      body: { message: 'A promo code with this code already exists' },
    });
    expect(await put('/api/promo/2147483647', { active: false })).toMatchObject({
      status: 404,
      body: { message: 'Промокод не найден' },
    });
    expect(await put('/api/promo/2147483647', { active: false }, english)).toMatchObject({
      status: 404,
      body: { message: 'Promo code not found' },
    });
    expect(await get('/api/payment/2147483647')).toMatchObject({
      status: 404,
      body: { message: 'Платёж не найден' },
    });
    expect(
      await post(admin, '/api/payment/2147483647/refund', { amount: '1', reason: 'x' }, english),
    ).toMatchObject({
      status: 404,
      body: { message: 'Payment not found' },
    });
    const now = Math.floor(Date.now() / 1000);
    const tooLong = `/api/log/self?start_timestamp=${now - 31 * 86_400}&end_timestamp=${now}`;
    expect(await get(tooLong)).toMatchObject({
      status: 400,
      body: { message: 'Период должен быть короче 31 дня' },
    });
    expect(await get(tooLong, english)).toMatchObject({
      status: 400,
      body: { message: 'The time range must be under 31 days' },
    });
  });
});
