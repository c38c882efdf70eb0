import { LedgerEntryKind } from './ledger-entry.entity';
import { accountDeltas, assertIntegerPostings, uniqueByKey, type LedgerPosting } from './posting';

const usage = (userId: number, key: string, quota: number): LedgerPosting => ({
  userId,
  kind: LedgerEntryKind.Usage,
  amount: -quota,
  idempotencyKey: key,
  usedQuota: quota,
  requestCount: 1,
});

const topUp = (userId: number, key: string, amount: number): LedgerPosting => ({
  userId,
  kind: LedgerEntryKind.TopUp,
  amount,
  idempotencyKey: key,
});

describe('accountDeltas', () => {
  it('sums balance, used quota and request count per account, counting only usage toward the latter two', () => {
    const deltas = accountDeltas([
      topUp(1, 't1', 500_000),
      usage(1, 'u1', 1_234),
      usage(1, 'u2', 66),
      usage(2, 'u3', 10),
    ]);
    expect(Object.fromEntries(deltas)).toEqual({
      1: { quota: 500_000 - 1_300, usedQuota: 1_300, requestCount: 2 },
      2: { quota: -10, usedQuota: 10, requestCount: 1 },
    });
  });

  it('gives no delta for no postings', () => {
    expect(accountDeltas([]).size).toBe(0);
  });

  it('refuses a total beyond the safe integer range instead of losing precision', () => {
    expect(() => accountDeltas([topUp(1, 'a', Number.MAX_SAFE_INTEGER), topUp(1, 'b', 1)])).toThrow(
      /quota total .* not a safe integer/,
    );
  });
});

describe('uniqueByKey', () => {
  it('keeps the first posting of a key repeated within one call', () => {
    const first = usage(1, 'same', 5);
    expect(uniqueByKey([first, usage(1, 'same', 7), usage(1, 'other', 1)])).toEqual([
      first,
      usage(1, 'other', 1),
    ]);
  });
});

describe('assertIntegerPostings', () => {
  it('accepts integer postings', () => {
    expect(() => assertIntegerPostings([usage(1, 'k', 3), topUp(2, 'l', -4)])).not.toThrow();
  });

  it.each([
    ['a fractional amount', { ...topUp(1, 'k', 1), amount: 0.5 }, /amount/],
    ['a fractional used quota', { ...usage(1, 'k', 1), usedQuota: 1.5 }, /usedQuota/],
    ['a non-finite request count', { ...usage(1, 'k', 1), requestCount: Number.NaN }, /requestCount/],
    ['an unsafe amount', { ...topUp(1, 'k', 1), amount: 2 ** 60 }, /amount/],
  ])('refuses %s', (_name, posting, message) => {
    expect(() => assertIntegerPostings([posting])).toThrow(message);
  });
});
