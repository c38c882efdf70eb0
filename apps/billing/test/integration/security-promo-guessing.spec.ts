import { randomBytes } from 'node:crypto';
import { INFRASTRUCTURES, randomUserId, startFakeCbr, type FakeCbr } from '@tollgate/testing';
import { BillingHarness, providersEnv, type Billing, type Caller, type Envelope } from './billing-harness';
import { aPaymentRequest } from './builders';

/** SPEC §5: the one answer, in Russian by default, for any promo code that cannot be used. */
const PROMO_INVALID_MESSAGE = 'Промокод недействителен';

jest.setTimeout(90_000);

interface Answer {
  status: number;
  retryAfter: string | null;
  body: Envelope;
}

const TRIES_PER_MINUTE = 5;

/**
 * Brute force on promo codes: they are words an administrator chose, and both the validation call
 * and a payment tell whether a code works. Each user gets PROMO_TRIES_PER_MINUTE unusable codes a
 * minute across both, bursts included; usable codes do not count.
 */
describe.each(INFRASTRUCTURES)('guessing promo codes on %s infrastructure', (kind) => {
  let cbr: FakeCbr;
  let billing: Billing;
  const harness = new BillingHarness(kind, 'billing-promo-guess-it', {
    env: () => ({
      ...providersEnv({ cbr }),
      TOLLGATE_PAYMENT_TEST: 'true',
      PROMO_TRIES_PER_MINUTE: String(TRIES_PER_MINUTE),
    }),
  });
  const GOOD = `GOOD${randomBytes(4).toString('hex')}`.toUpperCase();

  const post = async (path: string, body: unknown, caller: Caller): Promise<Answer> => {
    const response = await caller.fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      body: (await response.json()) as Envelope,
    };
  };
  const validate = (userId: number, code: string) =>
    post('/api/promo/validate', { code }, billing.asUser(userId));
  const pay = (userId: number, code: string) =>
    post('/api/user/payment', aPaymentRequest({ promo_code: code }), billing.asUser(userId));

  beforeAll(async () => {
    await harness.open();
    cbr = await startFakeCbr('80,0000');
    billing = await harness.start();
    const created = await billing
      .asAdmin()
      .post('/api/promo', { code: GOOD, type: 'percent', value: '10', max_uses: 0, per_user_limit: 0 });
    expect(created.status).toBe(200);
  });
  afterAll(async () => {
    await harness.close();
    await cbr?.close();
  });

  it('answers 429 with Retry-After once a user has tried too many unusable codes, and the right one then too', async () => {
    const user = randomUserId();
    for (let n = 0; n < TRIES_PER_MINUTE; n++) {
      const answer = await validate(user, `GUESS${n}`);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ success: false, message: PROMO_INVALID_MESSAGE });
    }

    const refused = await validate(user, GOOD);

    expect(refused.status).toBe(429);
    expect(refused.body.success).toBe(false);
    expect(refused.body.message).toMatch(/^Слишком много попыток ввести промокод: попробуйте через \d+ с$/);
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(60);
    expect((await validate(randomUserId(), GOOD)).body.success).toBe(true);
  });

  it('holds a burst sent at once to the same number of lookups', async () => {
    const user = randomUserId();
    const guesses = Array.from({ length: 30 }, (_, n) => `BURST${n}`);
    guesses[25] = GOOD;

    const answers = await Promise.all(guesses.map((code) => validate(user, code)));

    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(TRIES_PER_MINUTE);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(30 - TRIES_PER_MINUTE);
  });

  it('counts unusable codes in payments too, and never usable ones', async () => {
    const user = randomUserId();
    for (let n = 0; n < TRIES_PER_MINUTE * 2; n++) {
      expect((await validate(user, GOOD)).body.success).toBe(true);
    }
    for (let n = 0; n < TRIES_PER_MINUTE; n++) {
      const answer = await pay(user, `PAYGUESS${n}`);
      expect(answer.status).toBe(400);
      expect(answer.body.message).toBe(PROMO_INVALID_MESSAGE);
    }

    expect((await pay(user, GOOD)).status).toBe(429);
    expect((await validate(user, GOOD)).status).toBe(429);
  });
});
