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
});
