import type { LedgerEntryKind } from './ledger-entry.entity';

/** One change to post: `amount` moves the balance; usage also counts toward used quota and requests. */
export interface LedgerPosting {
  userId: number;
  kind: LedgerEntryKind;
  /** Quota units, negative for a debit. */
  amount: number;
  idempotencyKey: string;
  note?: string;
  /** Added to the account's used quota (usage: the charge). */
  usedQuota?: number;
  /** Added to the account's request count (usage: 1). */
  requestCount?: number;
}

/** What posting changes on one account. */
export interface AccountDelta {
  quota: number;
  usedQuota: number;
  requestCount: number;
}

function requireSafeInteger(name: string, value: number, key: string): void {
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`ledger posting ${key}: ${name} must be a safe integer, got ${value}`);
  }
}

/** Refuses fractional or unsafe amounts before anything touches the database: money is integers only. */
export function assertIntegerPostings(postings: readonly LedgerPosting[]): void {
  for (const posting of postings) {
    requireSafeInteger('userId', posting.userId, posting.idempotencyKey);
    requireSafeInteger('amount', posting.amount, posting.idempotencyKey);
    requireSafeInteger('usedQuota', posting.usedQuota ?? 0, posting.idempotencyKey);
    requireSafeInteger('requestCount', posting.requestCount ?? 0, posting.idempotencyKey);
  }
}

/** The first posting of each idempotency key: a key repeated within one call is still one entry. */
export function uniqueByKey(postings: readonly LedgerPosting[]): LedgerPosting[] {
  const seen = new Map<string, LedgerPosting>();
  for (const posting of postings) {
    if (!seen.has(posting.idempotencyKey)) seen.set(posting.idempotencyKey, posting);
  }
  return [...seen.values()];
}

/** Sums the postings that were actually inserted into one delta per account. */
export function accountDeltas(inserted: readonly LedgerPosting[]): Map<number, AccountDelta> {
  const deltas = new Map<number, AccountDelta>();
  for (const posting of inserted) {
    const delta = deltas.get(posting.userId) ?? { quota: 0, usedQuota: 0, requestCount: 0 };
    delta.quota += posting.amount;
    delta.usedQuota += posting.usedQuota ?? 0;
    delta.requestCount += posting.requestCount ?? 0;
    deltas.set(posting.userId, delta);
  }
  for (const [userId, delta] of deltas) {
    for (const [name, value] of Object.entries(delta)) {
      if (!Number.isSafeInteger(value)) {
        throw new RangeError(
          `ledger posting for user ${userId}: ${name} total ${value} is not a safe integer`,
        );
      }
    }
  }
  return deltas;
}
