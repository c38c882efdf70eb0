import { QuotaLedger } from './quota-ledger';

describe('QuotaLedger', () => {
  it('reserves only while the outstanding total fits in what is available', () => {
    const ledger = new QuotaLedger();
    expect(ledger.reserve(0, 'a', 70, 100, 1_000)).toEqual({ ok: true, outstanding: 70 });
    expect(ledger.reserve(0, 'b', 31, 100, 1_000)).toEqual({ ok: false, outstanding: 70 });
    expect(ledger.reserve(0, 'c', 30, 100, 1_000)).toEqual({ ok: true, outstanding: 100 });
  });

  it('answers a repeated reservation id with the current state and changes nothing', () => {
    const ledger = new QuotaLedger();
    ledger.reserve(0, 'a', 70, 100, 1_000);
    expect(ledger.reserve(10, 'a', 90, 100, 60_000)).toEqual({ ok: true, outstanding: 70 });
    // The repeat did not extend the original expiry.
    expect(ledger.outstanding(1_000)).toBe(0);
  });

  it('drops a reservation exactly when its TTL has passed', () => {
    const ledger = new QuotaLedger();
    ledger.reserve(0, 'a', 40, 100, 1_000);
    expect(ledger.outstanding(999)).toBe(40);
    expect(ledger.outstanding(1_000)).toBe(0);
    expect(ledger.settle(1_000, 'a', 40, 0)).toBe(false);
  });

  it('turns a settled reservation into a hold of the actual amount with its own expiry', () => {
    const ledger = new QuotaLedger();
    ledger.reserve(0, 'a', 50, 100, 1_000);
    expect(ledger.settle(500, 'a', 20, 5_000)).toBe(true);
    expect(ledger.outstanding(2_000)).toBe(20);
    expect(ledger.reserve(2_000, 'b', 81, 100, 1_000)).toEqual({ ok: false, outstanding: 20 });
    expect(ledger.outstanding(5_500)).toBe(0);
  });

  it('drops a reservation settled without a hold', () => {
    const ledger = new QuotaLedger();
    ledger.reserve(0, 'a', 50, 100, 1_000);
    expect(ledger.settle(10, 'a', 50, 0)).toBe(true);
    expect(ledger.outstanding(10)).toBe(0);
    expect(ledger.isIdle(10)).toBe(true);
  });

  it('releases a reservation or a hold and ignores an unknown id', () => {
    const ledger = new QuotaLedger();
    ledger.reserve(0, 'a', 10, 100, 1_000);
    ledger.reserve(0, 'b', 20, 100, 1_000);
    ledger.settle(0, 'b', 15, 1_000);
    ledger.release(1, 'a');
    ledger.release(1, 'unknown');
    expect(ledger.outstanding(1)).toBe(15);
    ledger.release(2, 'b');
    expect(ledger.outstanding(2)).toBe(0);
  });

  it('counts expired entries as freed before deciding on a new reservation', () => {
    const ledger = new QuotaLedger();
    ledger.reserve(0, 'old', 100, 100, 1_000);
    expect(ledger.reserve(1_000, 'new', 100, 100, 1_000)).toEqual({ ok: true, outstanding: 100 });
  });

  it('is idle only when every entry has expired or been removed', () => {
    const ledger = new QuotaLedger();
    expect(ledger.isIdle(0)).toBe(true);
    ledger.reserve(0, 'a', 1, 10, 1_000);
    expect(ledger.isIdle(999)).toBe(false);
    expect(ledger.isIdle(1_000)).toBe(true);
  });

  it('keeps a hold that replaced a reservation past the reservation expiry', () => {
    const ledger = new QuotaLedger();
    ledger.reserve(0, 'a', 50, 100, 1_000);
    ledger.settle(10, 'a', 30, 5_000);
    expect(ledger.outstanding(1_000)).toBe(30);
    expect(ledger.outstanding(5_009)).toBe(30);
    expect(ledger.outstanding(5_010)).toBe(0);
  });

  it('agrees with a walk over every entry through many reserves, settles, releases and expiries', () => {
    const ledger = new QuotaLedger();
    const model = new Map<string, { amount: number; expiresAt: number }>();
    const modelTotal = (now: number) => {
      for (const [id, entry] of model) if (entry.expiresAt <= now) model.delete(id);
      let total = 0;
      for (const entry of model.values()) total += entry.amount;
      return total;
    };
    // A fixed pseudo-random sequence, so that a failure replays.
    let seed = 7;
    const next = (below: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % below;
    };
    let now = 0;
    for (let step = 0; step < 5_000; step++) {
      now += next(3);
      const id = `r${next(400)}`;
      const kind = next(4);
      if (kind === 0) {
        const amount = 1 + next(50);
        const ttl = 1 + next(500);
        const result = ledger.reserve(now, id, amount, 5_000, ttl);
        const outstanding = modelTotal(now);
        if (model.has(id)) expect(result).toEqual({ ok: true, outstanding });
        else if (outstanding + amount > 5_000) expect(result).toEqual({ ok: false, outstanding });
        else {
          model.set(id, { amount, expiresAt: now + ttl });
          expect(result).toEqual({ ok: true, outstanding: outstanding + amount });
        }
      } else if (kind === 1) {
        const actual = next(60);
        const hold = next(2) === 0 ? 0 : 1 + next(800);
        modelTotal(now);
        const existed = model.has(id);
        expect(ledger.settle(now, id, actual, hold)).toBe(existed);
        if (existed && hold > 0) model.set(id, { amount: actual, expiresAt: now + hold });
        else model.delete(id);
      } else if (kind === 2) {
        ledger.release(now, id);
        model.delete(id);
      } else {
        expect(ledger.outstanding(now)).toBe(modelTotal(now));
        expect(ledger.isIdle(now)).toBe(model.size === 0);
      }
    }
  });

  it('does not walk its live entries on each operation', () => {
    const ledger = new QuotaLedger();
    for (let i = 0; i < 1_000; i++) ledger.reserve(0, `hold-${i}`, 1, 1_000_000, 60_000);
    const iterator = Map.prototype[Symbol.iterator];
    let walks = 0;
    Map.prototype[Symbol.iterator] = function countedIterator(this: Map<unknown, unknown>) {
      walks++;
      return iterator.call(this);
    };
    try {
      for (let i = 0; i < 1_000; i++) {
        ledger.reserve(1, `call-${i}`, 1, 1_000_000, 60_000);
        ledger.settle(2, `call-${i}`, 1, 0);
      }
    } finally {
      Map.prototype[Symbol.iterator] = iterator;
    }
    // A rebuild of the heap walks them, rarely; a walk per operation would be 2,000.
    expect(walks).toBeLessThan(20);
  });
});
