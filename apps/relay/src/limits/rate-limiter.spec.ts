import { ErrorCode, type GroupRateLimits } from '@tollgate/contracts';
import { MemoryKvStore } from '@tollgate/kv';
import { aToken, aUser } from '../../test/support/fixtures';
import type { Caller } from '../access/caller-access';
import { PerCallClaims } from '../quota/account-claims';
import { LeasedClaims } from '../quota/leased-claims';
import { formatResetDuration } from './rate-limit-headers';
import { RateLimitedError, RateLimiter, type AdmittedCall } from './rate-limiter';

const TTL = { reservationTtlMs: 600_000 };

/** The limiter's clock, moved by hand; the store keeps its own. */
class ManualClock {
  ms = 1_000_000;
  readonly now = () => this.ms;
  advance(ms: number): void {
    this.ms += ms;
  }
}

function limiterOn(kv: MemoryKvStore, groups: GroupRateLimits, clock = new ManualClock()): RateLimiter {
  return new RateLimiter(
    {
      requests: new PerCallClaims(kv, { ...TTL, holdMs: 60_000 }),
      tokens: new PerCallClaims(kv, { ...TTL, holdMs: 60_000 }),
      concurrency: new PerCallClaims(kv, { ...TTL, holdMs: 0 }),
    },
    () => groups,
    clock.now,
  );
}

const user = aUser(7);
const keyCaller = (
  id: number,
  own: Partial<Record<'rpm_limit' | 'tpm_limit' | 'concurrency_limit', number>> = {},
): Caller => ({
  token: aToken({ id, user_id: 7, ...own }),
  user,
  group: 'default',
});

let calls = 0;
const admit = async (limiter: RateLimiter, caller: Caller, tokens = 10) =>
  limiter.admit(caller, `call-${++calls}`, tokens);

async function refusal(promise: Promise<unknown>): Promise<RateLimitedError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RateLimitedError);
  return error as RateLimitedError;
}

describe('RateLimiter', () => {
  it('touches no store and sends no headers when nothing limits the call', async () => {
    const kv = new MemoryKvStore();
    const reserve = jest.spyOn(kv, 'reserve');
    const admitted = await admit(limiterOn(kv, {}), keyCaller(1));
    expect(admitted.headers).toEqual({});
    await admitted.finish(10);
    expect(reserve).not.toHaveBeenCalled();
  });

  it('admits a call nothing limits at once, not in a promise', () => {
    const admitted = limiterOn(new MemoryKvStore(), {}).admit(keyCaller(1), 'call-at-once', 10);
    expect(admitted).not.toBeInstanceOf(Promise);
    expect((admitted as AdmittedCall).headers).toEqual({});
  });

  it("refuses a key's requests beyond its group's requests per minute, with Retry-After and 429", async () => {
    const limiter = limiterOn(new MemoryKvStore(), { default: { rpm: 3, tpm: 0, concurrency: 0 } });
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const admitted = await admit(limiter, keyCaller(1));
      remaining.push(admitted.headers['x-ratelimit-remaining-requests']!);
      expect(admitted.headers['x-ratelimit-limit-requests']).toBe('3');
      await admitted.finish(10);
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const error = await refusal(admit(limiter, keyCaller(1)));
    expect(error.code).toBe(ErrorCode.RateLimited);
    expect(error.status).toBe(429);
    // The three calls count for a minute after they ended: nothing frees sooner.
    expect(error.retryAfterSeconds).toBe(60);
    expect(error.message).toContain('requests per minute');
  });

  it("tells a refused call when the oldest of the burst's requests stops counting, to the millisecond", async () => {
    const clock = new ManualClock();
    const limiter = limiterOn(new MemoryKvStore(), { default: { rpm: 5, tpm: 0, concurrency: 0 } }, clock);
    for (let i = 0; i < 5; i++) {
      await (await admit(limiter, keyCaller(1))).finish(10);
      clock.advance(1_000);
    }
    // The first call ended 5 s ago and counts for 55 s more; an even share of the minute would say 12 s.
    const error = await refusal(admit(limiter, keyCaller(1)));
    expect(error.retryAfterMs).toBe(55_000);
    expect(error.retryAfterSeconds).toBe(55);
    expect(error.message).toContain('Please try again in 55s.');
    expect(error.extraHeaders).toEqual({
      'x-ratelimit-limit-requests': '5',
      'x-ratelimit-remaining-requests': '0',
      'x-ratelimit-reset-requests': '55s',
    });
    clock.advance(40_500);
    expect((await refusal(admit(limiter, keyCaller(1)))).retryAfterMs).toBe(14_500);
  });

  it("tells a call refused on tokens per minute when enough of the ended calls' tokens free", async () => {
    const clock = new ManualClock();
    const limiter = limiterOn(new MemoryKvStore(), { default: { rpm: 0, tpm: 1000, concurrency: 0 } }, clock);
    await (await admit(limiter, keyCaller(1), 500)).finish(300);
    clock.advance(10_000);
    await (await admit(limiter, keyCaller(1), 700)).finish(700);
    clock.advance(5_000);
    // 300 tokens free 45 s from now, the next 700 at 55 s: a call of 200 needs the first, of 400 both.
    expect((await refusal(admit(limiter, keyCaller(1), 200))).retryAfterMs).toBe(45_000);
    expect((await refusal(admit(limiter, keyCaller(1), 400))).retryAfterMs).toBe(55_000);
  });

  it("counts a leased call's minute from when its lease is settled in the store, not from the call's end", async () => {
    const clock = new ManualClock();
    const kv = new MemoryKvStore();
    const leased = (holdMs: number) =>
      new LeasedClaims(kv, { ...TTL, holdMs, leaseMs: 60_000, callsPerLease: 32 }, { warn: () => undefined });
    const limiter = new RateLimiter(
      { requests: leased(60_000), tokens: leased(60_000), concurrency: leased(0) },
      () => ({ default: { rpm: 3, tpm: 0, concurrency: 0 } }),
      clock.now,
    );
    await (await admit(limiter, keyCaller(1))).finish(1);
    clock.advance(2_000);
    await (await admit(limiter, keyCaller(1))).finish(1);
    await (await admit(limiter, keyCaller(1))).finish(1);
    clock.advance(3_000);
    // The first lease was settled when the second call opened a lease (2 s after the first call ended),
    // the second when the third did; the third's lease is still open, so its request holds no minute yet.
    expect((await refusal(admit(limiter, keyCaller(1)))).retryAfterMs).toBe(57_000);
    await limiter.close();
  });

  it('falls back to the share of the minute when the requests are held by calls still running', async () => {
    const limiter = limiterOn(new MemoryKvStore(), { default: { rpm: 4, tpm: 0, concurrency: 0 } });
    const running = await Promise.all([1, 2, 3, 4].map(() => admit(limiter, keyCaller(1))));
    expect((await refusal(admit(limiter, keyCaller(1)))).retryAfterSeconds).toBe(15);
    await Promise.all(running.map((call) => call.finish(1)));
  });

  it('counts a user across all their keys at the group limit', async () => {
    const limiter = limiterOn(new MemoryKvStore(), { default: { rpm: 2, tpm: 0, concurrency: 0 } });
    await (await admit(limiter, keyCaller(1))).finish(1);
    await (await admit(limiter, keyCaller(2))).finish(1);
    const error = await refusal(admit(limiter, keyCaller(3)));
    expect(error.scope).toBe('user');
  });

  it("applies a key's own tighter limit, and a chat call (no key) only the user's", async () => {
    const limiter = limiterOn(new MemoryKvStore(), { default: { rpm: 5, tpm: 0, concurrency: 0 } });
    await (await admit(limiter, keyCaller(1, { rpm_limit: 1 }))).finish(1);
    expect((await refusal(admit(limiter, keyCaller(1, { rpm_limit: 1 })))).scope).toBe('key');
    const chat = await admit(limiter, { token: null, user, group: 'default', label: 'chat #1' });
    expect(chat.headers['x-ratelimit-remaining-requests']).toBe('3');
  });

  it('lets a key without group limits set its own', async () => {
    const limiter = limiterOn(new MemoryKvStore(), {});
    await (await admit(limiter, keyCaller(1, { rpm_limit: 1 }))).finish(1);
    await refusal(admit(limiter, keyCaller(1, { rpm_limit: 1 })));
    await (await admit(limiter, keyCaller(2))).finish(1);
  });

  it('holds a concurrency slot until the call ends, and gives back what a refused call had taken', async () => {
    const limiter = limiterOn(new MemoryKvStore(), { default: { rpm: 10, tpm: 0, concurrency: 0 } });
    const first = await admit(limiter, keyCaller(1, { concurrency_limit: 1 }));
    const error = await refusal(admit(limiter, keyCaller(1, { concurrency_limit: 1 })));
    expect(error.dimension).toBe('concurrency');
    expect(error.retryAfterSeconds).toBe(1);
    await first.finish(1);
    const second = await admit(limiter, keyCaller(1, { concurrency_limit: 1 }));
    // The refused call took no request: only the first and this one count.
    expect(second.headers['x-ratelimit-remaining-requests']).toBe('8');
    await second.abandon();
  });

  it('reserves tokens per minute up front and corrects them by the real usage', async () => {
    const limiter = limiterOn(new MemoryKvStore(), { default: { rpm: 0, tpm: 1000, concurrency: 0 } });
    const first = await admit(limiter, keyCaller(1), 800);
    expect(first.headers['x-ratelimit-remaining-tokens']).toBe('200');
    expect((await refusal(admit(limiter, keyCaller(1), 300))).dimension).toBe('tpm');
    await first.finish(100);
    const second = await admit(limiter, keyCaller(1), 300);
    expect(second.headers['x-ratelimit-remaining-tokens']).toBe('600');
    expect(second.headers['x-ratelimit-reset-tokens']).toBe('24s');
  });

  it('never refuses a call for its size alone: it reserves at most the whole limit', async () => {
    const limiter = limiterOn(new MemoryKvStore(), { default: { rpm: 0, tpm: 1000, concurrency: 0 } });
    const big = await admit(limiter, keyCaller(1), 50_000);
    expect(big.headers['x-ratelimit-remaining-tokens']).toBe('0');
  });

  it('shares one limit between replicas on one store', async () => {
    const kv = new MemoryKvStore();
    const groups = { default: { rpm: 4, tpm: 0, concurrency: 0 } };
    const [a, b] = [limiterOn(kv, groups), limiterOn(kv, groups)];
    await (await admit(a, keyCaller(1))).finish(1);
    await (await admit(b, keyCaller(1))).finish(1);
    await (await admit(a, keyCaller(1))).finish(1);
    await (await admit(b, keyCaller(1))).finish(1);
    await refusal(admit(a, keyCaller(1)));
    await refusal(admit(b, keyCaller(1)));
  });

  it('admits high limits from leases without a store round trip per call', async () => {
    const kv = new MemoryKvStore();
    const reserve = jest.spyOn(kv, 'reserve');
    const leased = (holdMs: number) =>
      new LeasedClaims(kv, { ...TTL, holdMs, leaseMs: 60_000, callsPerLease: 32 }, { warn: () => undefined });
    const limiter = new RateLimiter(
      { requests: leased(60_000), tokens: leased(60_000), concurrency: leased(0) },
      () => ({ default: { rpm: 100_000, tpm: 0, concurrency: 0 } }),
    );
    for (let i = 0; i < 64; i++) await (await admit(limiter, keyCaller(1))).finish(1);
    // Two accounts (user and key), a lease of 32 calls each.
    expect(reserve.mock.calls.length).toBeLessThanOrEqual(4);
    await limiter.close();
  });
});

describe('formatResetDuration', () => {
  it("writes durations the way OpenAI's headers do", () => {
    expect(formatResetDuration(250)).toBe('250ms');
    expect(formatResetDuration(6000)).toBe('6s');
    expect(formatResetDuration(1500)).toBe('1.5s');
    expect(formatResetDuration(90_000)).toBe('1m30s');
    expect(formatResetDuration(0)).toBe('0ms');
  });
});
