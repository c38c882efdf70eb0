import type { ReserveResult } from '../port/kv-store.port';

interface Entry {
  amount: number;
  expiresAt: number;
}

/**
 * The live reservations and holds of one account. Every operation first drops the entries whose
 * expiry has passed (`expiresAt <= now`), then acts; `total` is kept in step so that reading the
 * outstanding amount does not walk the entries.
 */
export class QuotaLedger {
  private readonly entries = new Map<string, Entry>();
  private total = 0;

  reserve(now: number, id: string, amount: number, available: number, ttlMs: number): ReserveResult {
    this.purge(now);
    if (this.entries.has(id)) return { ok: true, outstanding: this.total };
    if (this.total + amount > available) return { ok: false, outstanding: this.total };
    this.entries.set(id, { amount, expiresAt: now + ttlMs });
    this.total += amount;
    return { ok: true, outstanding: this.total };
  }

  settle(now: number, id: string, actualAmount: number, holdMs: number): boolean {
    this.purge(now);
    const entry = this.entries.get(id);
    if (!entry) return false;
    if (holdMs > 0) {
      this.total += actualAmount - entry.amount;
      this.entries.set(id, { amount: actualAmount, expiresAt: now + holdMs });
    } else {
      this.remove(id, entry);
    }
    return true;
  }

  release(now: number, id: string): void {
    this.purge(now);
    const entry = this.entries.get(id);
    if (entry) this.remove(id, entry);
  }

  outstanding(now: number): number {
    this.purge(now);
    return this.total;
  }

  /** True when nothing is left after dropping what has expired: the ledger can be forgotten. */
  isIdle(now: number): boolean {
    this.purge(now);
    return this.entries.size === 0;
  }

  private purge(now: number): void {
    for (const [id, entry] of this.entries) {
      if (entry.expiresAt <= now) this.remove(id, entry);
    }
  }

  private remove(id: string, entry: Entry): void {
    this.entries.delete(id);
    this.total -= entry.amount;
  }
}
