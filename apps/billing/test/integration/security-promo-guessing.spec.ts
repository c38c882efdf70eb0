import { randomBytes } from 'node:crypto';
import { PROMO_INVALID_MESSAGE, Role } from '@tollgate/contracts';
import type { TestDatabase } from '@tollgate/persistence';
import { INTERNAL_IDENTITY_HEADER, signInternalToken } from '@tollgate/platform';
import {
  INFRASTRUCTURES,
  openInfrastructure,
  randomUserId,
  startFakeCbr,
  waitUntilReady,
  type FakeCbr,
  type TestInfrastructureWithDatabase,
} from '@tollgate/testing';
import { startBilling } from '../../src';

jest.setTimeout(90_000);

interface Answer {
  status: number;
  retryAfter: string | null;
  body: { success: boolean; message: string; data?: Record<string, unknown> };
}

const TRIES_PER_MINUTE = 5;

/**
 * Brute force on promo codes: they are words an administrator chose, and both the validation call
 * and a payment tell whether a code works. Each user gets PROMO_TRIES_PER_MINUTE unusable codes a
 * minute across both, bursts included; usable codes do not count.
 */
describe.each(INFRASTRUCTURES)('guessing promo codes on %s infrastructure', (kind) => {
  let infra: TestInfrastructureWithDatabase;
  let cbr: FakeCbr;
  let database: TestDatabase;
  let url: string;
  let close: () => Promise<void>;
  const secret = randomBytes(32).toString('hex');
  const GOOD = `GOOD${randomBytes(4).toString('hex')}`.toUpperCase();

  const as = async (userId: number, role = Role.User) => ({
    [INTERNAL_IDENTITY_HEADER]: await signInternalToken({ userId, role, via: 'session' }, secret),
  });
  const post = async (path: string, body: unknown, userId: number, role = Role.User): Promise<Answer> => {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(await as(userId, role)) },
      body: JSON.stringify(body),
    });
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      body: (await response.json()) as Answer['body'],
    };
  };
  const validate = (userId: number, code: string) => post('/api/promo/validate', { code }, userId);
  const pay = (userId: number, code: string) =>
    post(
      '/api/user/payment',
      { amount: '1000', provider: 'test', email: 'p@example.com', promo_code: code },
      userId,
    );

  beforeAll(async () => {
    infra = await openInfrastructure(kind, 'billing-promo-guess-it');
    cbr = await startFakeCbr('80,0000');
    database = await infra.createDatabase();
    const billing = await startBilling(
      {
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'error',
        DATABASE_URL: database.url,
        TOLLGATE_INTERNAL_TOKEN_SECRET: secret,
        CBR_DAILY_URL: cbr.dailyUrl,
        TOLLGATE_PAYMENT_TEST: 'true',
        PROMO_TRIES_PER_MINUTE: String(TRIES_PER_MINUTE),
      },
      infra.runtime,
    );
    url = billing.url;
    close = () => billing.close();
    await waitUntilReady(url);
    const created = await post(
      '/api/promo',
      { code: GOOD, type: 'percent', value: '10', max_uses: 0, per_user_limit: 0 },
      randomUserId(),
      Role.Admin,
    );
    expect(created.status).toBe(200);
  });
  afterAll(async () => {
    await close?.();
    await cbr?.close();
    await infra?.close();
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
