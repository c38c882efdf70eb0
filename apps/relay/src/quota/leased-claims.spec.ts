import { MemoryKvStore } from '@tollgate/kv';
import type { AccountClaim } from './account-claims';
import { LeasedClaims, leaseSize } from './leased-claims';

const POLICY = { reservationTtlMs: 60_000, holdMs: 30_000, leaseMs: 500, callsPerLease: 8 };
const ACCOUNT = 'user:7';

function setup(policy = POLICY) {
  const kv = new MemoryKvStore();
  const reserve = jest.spyOn(kv, 'reserve');
  const warn = jest.fn();
  const claims = new LeasedClaims(kv, policy, { warn } as never, () => Date.now());
  return { kv, reserve, claims, warn };
}

/** Lets the lease's store calls (settle or release on retirement) finish. */
const settleStore = async (claims: LeasedClaims) => {
  await jest.advanceTimersByTimeAsync(POLICY.leaseMs);
  await claims.close();
};

describe('leaseSize', () => {
  it('is calls-per-lease estimates, capped at 1/64 of the available balance, never below one call', () => {
    expect(leaseSize(100, 1_000_000, 8)).toBe(800);
    expect(leaseSize(100, 6_400, 8)).toBe(100);
    expect(leaseSize(100, 32_000, 8)).toBe(500);
    expect(leaseSize(100, 50, 8)).toBe(100);
  });
});

describe('LeasedClaims', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('serves the calls of one account from one store reservation', async () => {
    const { kv, reserve, claims } = setup();
    const taken: AccountClaim[] = [];
    for (let i = 0; i < 8; i++) taken.push((await claims.claim(ACCOUNT, `c${i}`, 100, 1_000_000))!);
    expect(taken.every((claim) => claim !== undefined)).toBe(true);
    expect(reserve).toHaveBeenCalledTimes(1);
    expect(await kv.outstanding(ACCOUNT)).toBe(800);
    // The ninth does not fit the lease: a second one is reserved.
    expect(await claims.claim(ACCOUNT, 'c8', 100, 1_000_000)).toBeDefined();
    expect(reserve).toHaveBeenCalledTimes(2);
    await claims.close();
  });

  it('gives a call that fits the open lease its claim at once, not in a promise', async () => {
    const { claims } = setup();
    const first = claims.claim(ACCOUNT, 'first', 100, 1_000_000);
    expect(first).toBeInstanceOf(Promise);
    await first;
    await claims.claim(ACCOUNT, 'second', 100, 1_000_000);
    const third = claims.claim(ACCOUNT, 'third', 100, 1_000_000);
    expect(third).not.toBeInstanceOf(Promise);
    expect((third as AccountClaim).remaining).toBe(1_000_000 - 300);
    await claims.close();
  });

  it('opens one lease for calls that arrive together', async () => {
    const { reserve, claims } = setup();
    const together = await Promise.all(
      Array.from({ length: 5 }, (_, i) => claims.claim(ACCOUNT, `c${i}`, 100, 1_000_000)),
    );
    expect(together.every((claim) => claim !== undefined)).toBe(true);
    expect(reserve).toHaveBeenCalledTimes(1);
    await claims.close();
  });

  it('after the lease period, once its calls ended, keeps only their real cost as a hold', async () => {
    const { kv, claims } = setup();
    const served = (await claims.claim(ACCOUNT, 'a', 100, 1_000_000))!;
    const failed = (await claims.claim(ACCOUNT, 'b', 100, 1_000_000))!;
    const running = (await claims.claim(ACCOUNT, 'c', 100, 1_000_000))!;
    expect(await served.settle(30)).toBe(true);
    await failed.release();
    // No call came after the lease period: the timer retires it half a period later.
    await jest.advanceTimersByTimeAsync(POLICY.leaseMs * 1.5);
    // Retired, but a call is still running: the whole lease still counts.
    expect(await kv.outstanding(ACCOUNT)).toBe(800);
    await running.settle(45);
    await jest.advanceTimersByTimeAsync(1);
    expect(await kv.outstanding(ACCOUNT)).toBe(75);
    // The hold ends after holdMs, like a single call's.
    await jest.advanceTimersByTimeAsync(POLICY.holdMs);
    expect(await kv.outstanding(ACCOUNT)).toBe(0);
    await claims.close();
  });

  it('keeps a timer only while a lease is open, so an idle relay is not woken', async () => {
    const { kv, claims } = setup();
    // The memory store's own sweep.
    const storeTimers = jest.getTimerCount();
    const claim = (await claims.claim(ACCOUNT, 'a', 100, 1_000_000))!;
    expect(jest.getTimerCount()).toBe(storeTimers + 1);
    await claim.settle(30);
    await jest.advanceTimersByTimeAsync(POLICY.leaseMs * 1.5);
    expect(await kv.outstanding(ACCOUNT)).toBe(30);
    expect(jest.getTimerCount()).toBe(storeTimers);
    await claims.close();
  });

  it("retires a lease past its period at the account's next call, settling it beside the next reservation", async () => {
    const { kv, reserve, claims } = setup();
    const settle = jest.spyOn(kv, 'settle');
    await (await claims.claim(ACCOUNT, 'a', 100, 1_000_000))!.settle(30);
    await jest.advanceTimersByTimeAsync(POLICY.leaseMs);
    // Not yet retired by the timer: the next call does it.
    expect(settle).not.toHaveBeenCalled();
    const next = claims.claim(ACCOUNT, 'b', 100, 1_000_000);
    // Both store calls are made before either answers (one round trip's wake-up for the two).
    expect(settle).toHaveBeenCalledTimes(1);
    expect(reserve).toHaveBeenCalledTimes(2);
    expect(await next).toBeDefined();
    expect(await kv.outstanding(ACCOUNT)).toBe(30 + 800);
    await claims.close();
  });

  it('settles or releases a claim once, whatever is called after', async () => {
    const { kv, claims } = setup();
    const claim = (await claims.claim(ACCOUNT, 'a', 100, 1_000_000))!;
    await claim.settle(40);
    await claim.settle(90);
    await claim.release();
    await settleStore(claims);
    expect(await kv.outstanding(ACCOUNT)).toBe(40);
  });

  it('hands everything back when no call was charged', async () => {
    const { kv, claims } = setup();
    await (await claims.claim(ACCOUNT, 'a', 100, 1_000_000))!.release();
    await settleStore(claims);
    expect(await kv.outstanding(ACCOUNT)).toBe(0);
  });

  it('near the end of the balance reserves the call alone, and refuses what does not fit', async () => {
    const { kv, reserve, claims } = setup();
    // 1/64 of 200 is 3: a lease cannot be larger than the call.
    expect(await claims.claim(ACCOUNT, 'a', 150, 200)).toBeDefined();
    expect(await claims.claim(ACCOUNT, 'b', 100, 200)).toBeUndefined();
    expect(await claims.claim(ACCOUNT, 'c', 50, 200)).toBeDefined();
    expect(await kv.outstanding(ACCOUNT)).toBe(200);
    expect(reserve).toHaveBeenCalledTimes(3);
    await claims.close();
  });

  it('falls back to the call alone when a whole lease no longer fits', async () => {
    const { kv, claims } = setup();
    await kv.reserve(ACCOUNT, 'elsewhere', 999_500, 1_000_000, 60_000);
    // A lease of 800 does not fit in the 500 left; the call of 100 does.
    expect(await claims.claim(ACCOUNT, 'a', 100, 1_000_000)).toBeDefined();
    expect(await kv.outstanding(ACCOUNT)).toBe(999_600);
    await claims.close();
  });

  it('never lets two replicas together commit more than the balance', async () => {
    const kv = new MemoryKvStore();
    // Holds outlive the run: billing's balance is not lowered here, so no charge may stop counting.
    const policy = { ...POLICY, holdMs: 3_600_000, reservationTtlMs: 3_600_000 };
    const replicas = [0, 1].map(
      () => new LeasedClaims(kv, policy, { warn: () => undefined } as never, () => Date.now()),
    );
    const balance = 50_000;
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    const inFlight: { claim: AccountClaim; estimate: number }[] = [];
    let charged = 0;
    let refused = 0;
    for (let step = 0; step < 2_000; step++) {
      const action = random(10);
      if (action < 5) {
        const estimate = 1 + random(1_000);
        const claim = await replicas[random(2)]!.claim(ACCOUNT, `s${step}`, estimate, balance);
        if (claim === undefined) refused += 1;
        else inFlight.push({ claim, estimate });
      } else if (action < 9 && inFlight.length > 0) {
        const [call] = inFlight.splice(random(inFlight.length), 1);
        const actual = random(call!.estimate + 1);
        if (random(4) === 0) await call!.claim.release();
        else {
          await call!.claim.settle(actual);
          charged += actual;
        }
      } else {
        await jest.advanceTimersByTimeAsync(100 + random(400));
      }
      const committed = charged + inFlight.reduce((sum, call) => sum + call.estimate, 0);
      expect(committed).toBeLessThanOrEqual(balance);
      expect(await kv.outstanding(ACCOUNT)).toBeLessThanOrEqual(balance);
    }
    expect(refused).toBeGreaterThan(0);
    for (const call of inFlight) await call.claim.release();
    for (const replica of replicas) await replica.close();
    expect(await kv.outstanding(ACCOUNT)).toBe(charged);
  });

  it('hands back what it holds when closed', async () => {
    const { kv, claims } = setup();
    await (await claims.claim(ACCOUNT, 'a', 100, 1_000_000))!.settle(60);
    expect(await kv.outstanding(ACCOUNT)).toBe(800);
    await claims.close();
    expect(await kv.outstanding(ACCOUNT)).toBe(60);
  });
});
