import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { KvStore } from '../../src';

/**
 * The behaviour every KvStore adapter must show. Runs against real time: TTLs are short
 * (50-600 ms) and waits leave a margin for a busy machine.
 */
export function describeKvStoreContract(name: string, makeStore: () => KvStore | Promise<KvStore>): void {
  describe(`KvStore contract: ${name}`, () => {
    let store: KvStore;
    /** A key (or account) no other test touches. */
    const fresh = (label: string): string => `${label}:${randomUUID()}`;

    beforeAll(async () => {
      store = await makeStore();
    });

    afterAll(async () => {
      await store?.close();
    });

    describe('plain values', () => {
      it('returns null for a key never set', async () => {
        await expect(store.get(fresh('missing'))).resolves.toBeNull();
      });

      it('returns what was set and keeps it without expiry when no TTL is given', async () => {
        const key = fresh('plain');
        await store.set(key, 'v1');
        await expect(store.get(key)).resolves.toBe('v1');
        await expect(store.ttl(key)).resolves.toBe(-1);
      });

      it('overwrites a value and drops its previous TTL when set again without one', async () => {
        const key = fresh('overwrite');
        await store.set(key, 'old', 10_000);
        await store.set(key, 'new');
        await expect(store.get(key)).resolves.toBe('new');
        await expect(store.ttl(key)).resolves.toBe(-1);
      });

      it('expires a value after its TTL and reports the remaining time before that', async () => {
        const key = fresh('ttl');
        await store.set(key, 'short', 150);
        const remaining = await store.ttl(key);
        expect(remaining).toBeGreaterThan(0);
        expect(remaining).toBeLessThanOrEqual(150);
        await sleep(250);
        await expect(store.get(key)).resolves.toBeNull();
        await expect(store.ttl(key)).resolves.toBe(-2);
      });

      it('deletes a value', async () => {
        const key = fresh('del');
        await store.set(key, 'v');
        await store.del(key);
        await expect(store.get(key)).resolves.toBeNull();
        await expect(store.del(key)).resolves.toBeUndefined();
      });

      it('rejects a TTL that is not a positive integer', async () => {
        await expect(store.set(fresh('bad-ttl'), 'v', 0)).rejects.toThrow(RangeError);
        await expect(store.set(fresh('bad-ttl'), 'v', 1.5)).rejects.toThrow(RangeError);
      });
    });

    describe('setIfAbsent', () => {
      it('sets only when the key is absent', async () => {
        const key = fresh('nx');
        await expect(store.setIfAbsent(key, 'first', 10_000)).resolves.toBe(true);
        await expect(store.setIfAbsent(key, 'second', 10_000)).resolves.toBe(false);
        await expect(store.get(key)).resolves.toBe('first');
      });

      it('lets exactly one of many concurrent callers win', async () => {
        const key = fresh('nx-race');
        const results = await Promise.all(
          Array.from({ length: 30 }, (_, i) => store.setIfAbsent(key, `owner-${i}`, 10_000)),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
        await expect(store.get(key)).resolves.toBe(`owner-${results.indexOf(true)}`);
      });

      it('sets again once the previous value has expired', async () => {
        const key = fresh('nx-expiry');
        await store.setIfAbsent(key, 'first', 80);
        await sleep(180);
        await expect(store.setIfAbsent(key, 'second', 10_000)).resolves.toBe(true);
        await expect(store.get(key)).resolves.toBe('second');
      });
    });

    describe('take', () => {
      it('returns the value once and deletes it', async () => {
        const key = fresh('take');
        await store.set(key, 'state', 10_000);
        await expect(store.take(key)).resolves.toBe('state');
        await expect(store.take(key)).resolves.toBeNull();
        await expect(store.get(key)).resolves.toBeNull();
      });

      it('hands the value to exactly one of many concurrent takers', async () => {
        const key = fresh('take-race');
        await store.setIfAbsent(key, 'one-time-code', 10_000);
        const results = await Promise.all(Array.from({ length: 30 }, () => store.take(key)));
        expect(results.filter((value) => value === 'one-time-code')).toHaveLength(1);
        expect(results.filter((value) => value === null)).toHaveLength(29);
      });

      it('returns null for an expired value', async () => {
        const key = fresh('take-expired');
        await store.set(key, 'stale', 60);
        await sleep(160);
        await expect(store.take(key)).resolves.toBeNull();
      });
    });

    describe('incr', () => {
      it('creates a counter at the increment and adds to it afterwards', async () => {
        const key = fresh('counter');
        await expect(store.incr(key, 10_000)).resolves.toBe(1);
        await expect(store.incr(key, 10_000)).resolves.toBe(2);
        await expect(store.incr(key, 10_000, 5)).resolves.toBe(7);
        await expect(store.incr(key, 10_000, -3)).resolves.toBe(4);
        await expect(store.get(key)).resolves.toBe('4');
      });

      it('sets the TTL only when the counter is created', async () => {
        // Margins wide enough for a loaded machine: the second incr must land well inside the TTL.
        const key = fresh('counter-ttl');
        await store.incr(key, 1500);
        await sleep(300);
        await expect(store.incr(key, 60_000)).resolves.toBe(2);
        const remaining = await store.ttl(key);
        expect(remaining).toBeGreaterThan(0);
        expect(remaining).toBeLessThanOrEqual(1500 - 250);
        await sleep(remaining + 100);
        await expect(store.get(key)).resolves.toBeNull();
        await expect(store.incr(key, 60_000)).resolves.toBe(1);
      });

      it('leaves a counter that was set without expiry without one', async () => {
        const key = fresh('counter-persistent');
        await store.set(key, '10');
        await expect(store.incr(key, 100)).resolves.toBe(11);
        await expect(store.ttl(key)).resolves.toBe(-1);
      });

      it('counts every one of many concurrent increments', async () => {
        const key = fresh('counter-race');
        await Promise.all(Array.from({ length: 50 }, () => store.incr(key, 10_000)));
        await expect(store.get(key)).resolves.toBe('50');
      });

      it('rejects incrementing a value that is not an integer', async () => {
        const key = fresh('counter-text');
        await store.set(key, 'abc');
        await expect(store.incr(key, 10_000)).rejects.toThrow(/not an integer/);
      });
    });

    describe('hit (sliding-window rate limit)', () => {
      it('allows up to the limit, counting down the remaining hits, then refuses', async () => {
        const key = fresh('rl');
        const results = [];
        for (let i = 0; i < 4; i++) results.push(await store.hit(key, 3, 10_000));
        expect(results.map((r) => [r.allowed, r.remaining])).toEqual([
          [true, 2],
          [true, 1],
          [true, 0],
          [false, 0],
        ]);
        expect(results.slice(0, 3).every((r) => r.retryAfterMs === 0)).toBe(true);
        expect(results[3]!.retryAfterMs).toBeGreaterThan(9_000);
        expect(results[3]!.retryAfterMs).toBeLessThanOrEqual(10_000);
      });

      it('allows exactly the limit out of 50 concurrent hits', async () => {
        const key = fresh('rl-race');
        const results = await Promise.all(Array.from({ length: 50 }, () => store.hit(key, 20, 600)));
        const allowed = results.filter((r) => r.allowed);
        const refused = results.filter((r) => !r.allowed);
        expect(allowed).toHaveLength(20);
        expect(allowed.map((r) => r.remaining).sort((a, b) => a - b)).toEqual(
          Array.from({ length: 20 }, (_, i) => i),
        );
        for (const r of refused) {
          expect(r.remaining).toBe(0);
          expect(r.retryAfterMs).toBeGreaterThan(0);
          expect(r.retryAfterMs).toBeLessThanOrEqual(600);
        }

        await sleep(Math.max(...refused.map((r) => r.retryAfterMs)) + 50);
        const afterWindow = await store.hit(key, 20, 600);
        expect(afterWindow).toEqual({ allowed: true, remaining: 19, retryAfterMs: 0 });
      });

      it('does not count refused hits', async () => {
        const key = fresh('rl-refused');
        await store.hit(key, 2, 300);
        await store.hit(key, 2, 300);
        for (let i = 0; i < 5; i++) expect((await store.hit(key, 2, 300)).allowed).toBe(false);
        await sleep(400);
        await expect(store.hit(key, 2, 300)).resolves.toEqual({
          allowed: true,
          remaining: 1,
          retryAfterMs: 0,
        });
      });

      it('frees each slot when its own hit leaves the window, not all at once', async () => {
        const key = fresh('rl-sliding');
        await store.hit(key, 2, 600);
        await sleep(300);
        await store.hit(key, 2, 600);
        const refused = await store.hit(key, 2, 600);
        expect(refused.allowed).toBe(false);
        // The first hit leaves the window about 300 ms from now; the second one later.
        expect(refused.retryAfterMs).toBeLessThanOrEqual(300);
        await sleep(refused.retryAfterMs + 50);
        expect((await store.hit(key, 2, 600)).allowed).toBe(true);
        expect((await store.hit(key, 2, 600)).allowed).toBe(false);
      });

      it('rejects a limit below 1', async () => {
        await expect(store.hit(fresh('rl-bad'), 0, 1_000)).rejects.toThrow(RangeError);
      });

      it('refuses to read a rate-limit key as a plain value', async () => {
        const key = fresh('rl-type');
        await store.hit(key, 5, 10_000);
        await expect(store.get(key)).rejects.toThrow(/WRONGTYPE/);
      });
    });

    describe('quota reservations', () => {
      it('reserves while the outstanding sum stays within what is available', async () => {
        const account = fresh('acct');
        await expect(store.reserve(account, 'r1', 60, 100, 10_000)).resolves.toEqual({
          ok: true,
          outstanding: 60,
        });
        await expect(store.reserve(account, 'r2', 40, 100, 10_000)).resolves.toEqual({
          ok: true,
          outstanding: 100,
        });
        await expect(store.reserve(account, 'r3', 1, 100, 10_000)).resolves.toEqual({
          ok: false,
          outstanding: 100,
        });
        await expect(store.outstanding(account)).resolves.toBe(100);
      });

      it('keeps the accounts apart', async () => {
        const first = fresh('acct');
        const second = fresh('acct');
        await store.reserve(first, 'r', 70, 100, 10_000);
        await expect(store.reserve(second, 'r', 70, 100, 10_000)).resolves.toEqual({
          ok: true,
          outstanding: 70,
        });
        await expect(store.outstanding(first)).resolves.toBe(70);
      });

      it('grants exactly 20 of 200 concurrent reservations of 5 against 100 available', async () => {
        const account = fresh('acct-race');
        const results = await Promise.all(
          Array.from({ length: 200 }, (_, i) => store.reserve(account, `req-${i}`, 5, 100, 10_000)),
        );
        expect(results.filter((r) => r.ok)).toHaveLength(20);
        for (const r of results) expect(r.outstanding).toBeLessThanOrEqual(100);
        await expect(store.outstanding(account)).resolves.toBe(100);
      });

      it('treats reserving an existing id again as a no-op success', async () => {
        const account = fresh('acct-idem');
        await store.reserve(account, 'req', 60, 100, 10_000);
        // Would not fit as a second reservation (120 > 100), but it is the same one.
        await expect(store.reserve(account, 'req', 60, 100, 10_000)).resolves.toEqual({
          ok: true,
          outstanding: 60,
        });
        await expect(store.outstanding(account)).resolves.toBe(60);
      });

      it('refuses everything when nothing is available', async () => {
        const account = fresh('acct-broke');
        await expect(store.reserve(account, 'req', 1, 0, 10_000)).resolves.toEqual({
          ok: false,
          outstanding: 0,
        });
        await expect(store.reserve(account, 'req', 1, -50, 10_000)).resolves.toEqual({
          ok: false,
          outstanding: 0,
        });
      });

      it('frees a reservation that is never settled once its TTL has passed', async () => {
        const account = fresh('acct-expiry');
        await store.reserve(account, 'crashed', 80, 100, 100);
        await expect(store.reserve(account, 'next', 80, 100, 10_000)).resolves.toMatchObject({ ok: false });
        await sleep(200);
        await expect(store.outstanding(account)).resolves.toBe(0);
        await expect(store.settle(account, 'crashed', 80, 0)).resolves.toBe(false);
        await expect(store.reserve(account, 'next', 80, 100, 10_000)).resolves.toEqual({
          ok: true,
          outstanding: 80,
        });
      });

      it('settles without a hold by dropping the reservation', async () => {
        const account = fresh('acct-settle');
        await store.reserve(account, 'req', 50, 100, 10_000);
        await expect(store.settle(account, 'req', 30, 0)).resolves.toBe(true);
        await expect(store.outstanding(account)).resolves.toBe(0);
        await expect(store.settle(account, 'req', 30, 0)).resolves.toBe(false);
      });

      it('settles with a hold: the actual amount stays counted until the hold expires', async () => {
        const account = fresh('acct-hold');
        await store.reserve(account, 'req', 50, 100, 10_000);
        await expect(store.settle(account, 'req', 30, 150)).resolves.toBe(true);
        await expect(store.outstanding(account)).resolves.toBe(30);
        await expect(store.reserve(account, 'big', 80, 100, 10_000)).resolves.toEqual({
          ok: false,
          outstanding: 30,
        });
        await sleep(250);
        await expect(store.outstanding(account)).resolves.toBe(0);
        await expect(store.reserve(account, 'big', 80, 100, 10_000)).resolves.toEqual({
          ok: true,
          outstanding: 80,
        });
      });

      it('gives a hold its own expiry, replacing the reservation TTL', async () => {
        const account = fresh('acct-hold-extends');
        await store.reserve(account, 'req', 50, 100, 100);
        await store.settle(account, 'req', 20, 10_000);
        await sleep(200);
        await expect(store.outstanding(account)).resolves.toBe(20);
      });

      it('returns false when settling an unknown reservation', async () => {
        await expect(store.settle(fresh('acct'), 'never-reserved', 10, 1_000)).resolves.toBe(false);
      });

      it('releases a reservation or a hold without charging', async () => {
        const account = fresh('acct-release');
        await store.reserve(account, 'a', 40, 100, 10_000);
        await store.reserve(account, 'b', 40, 100, 10_000);
        await store.settle(account, 'b', 25, 10_000);
        await store.release(account, 'a');
        await expect(store.outstanding(account)).resolves.toBe(25);
        await store.release(account, 'b');
        await expect(store.outstanding(account)).resolves.toBe(0);
        await expect(store.release(account, 'b')).resolves.toBeUndefined();
      });

      it('reports no outstanding amount for an account never seen', async () => {
        await expect(store.outstanding(fresh('acct-unknown'))).resolves.toBe(0);
      });

      it('rejects fractional or negative amounts', async () => {
        const account = fresh('acct-bad');
        await expect(store.reserve(account, 'r', 1.5, 100, 1_000)).rejects.toThrow(RangeError);
        await expect(store.reserve(account, 'r', -1, 100, 1_000)).rejects.toThrow(RangeError);
        await expect(store.reserve(account, 'r', 1, 100, 0)).rejects.toThrow(RangeError);
        await expect(store.settle(account, 'r', 2.5, 0)).rejects.toThrow(RangeError);
      });
    });
  });
}
