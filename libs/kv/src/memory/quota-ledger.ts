import type { ReserveResult } from '../port/kv-store.port';

interface Entry {
  amount: number;
  expiresAt: number;
}

/** An entry's expiry in the heap; stale once the id names another entry or none. */
interface Expiry {
  expiresAt: number;
  id: string;
  entry: Entry;
}

/**
 * The live reservations and holds of one account. Every operation first drops the entries whose
 * expiry has passed (`expiresAt <= now`), then acts; `total` is kept in step so that reading the
 * outstanding amount does not walk the entries.
 *
 * Expiries sit in a binary min-heap, so dropping what has expired looks only at those entries: with
 * relay's holds (60 s of every settled lease) an account holds thousands of entries under load, and a
 * walk over all of them on every reserve and settle was relay's largest own cost in embedded mode's
 * profile. A settled or released entry leaves its heap item behind, skipped when it comes up; the heap
 * is rebuilt from the live entries when such items outnumber them.
 */
export class QuotaLedger {
  private readonly entries = new Map<string, Entry>();
  private heap: Expiry[] = [];
  private total = 0;

  reserve(now: number, id: string, amount: number, available: number, ttlMs: number): ReserveResult {
    this.purge(now);
    if (this.entries.has(id)) return { ok: true, outstanding: this.total };
    if (this.total + amount > available) return { ok: false, outstanding: this.total };
    this.add(id, { amount, expiresAt: now + ttlMs });
    this.total += amount;
    return { ok: true, outstanding: this.total };
  }

  settle(now: number, id: string, actualAmount: number, holdMs: number): boolean {
    this.purge(now);
    const entry = this.entries.get(id);
    if (!entry) return false;
    if (holdMs > 0) {
      this.total += actualAmount - entry.amount;
      this.add(id, { amount: actualAmount, expiresAt: now + holdMs });
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

  private add(id: string, entry: Entry): void {
    this.entries.set(id, entry);
    // Stale items (settled, released) are dropped by a rebuild once they outnumber the live entries.
    if (this.heap.length >= 2 * this.entries.size + 32) this.rebuild();
    else push(this.heap, { expiresAt: entry.expiresAt, id, entry });
  }

  private purge(now: number): void {
    const heap = this.heap;
    while (heap.length > 0 && heap[0]!.expiresAt <= now) {
      const { id, entry } = pop(heap);
      if (this.entries.get(id) === entry) this.remove(id, entry);
    }
  }

  private remove(id: string, entry: Entry): void {
    this.entries.delete(id);
    this.total -= entry.amount;
    if (this.entries.size === 0) this.heap = [];
  }

  private rebuild(): void {
    const heap: Expiry[] = [];
    for (const [id, entry] of this.entries) heap.push({ expiresAt: entry.expiresAt, id, entry });
    for (let at = (heap.length >> 1) - 1; at >= 0; at--) siftDown(heap, at);
    this.heap = heap;
  }
}

function push(heap: Expiry[], item: Expiry): void {
  let at = heap.length;
  heap.push(item);
  while (at > 0) {
    const up = (at - 1) >> 1;
    if (heap[up]!.expiresAt <= item.expiresAt) break;
    heap[at] = heap[up]!;
    at = up;
  }
  heap[at] = item;
}

function pop(heap: Expiry[]): Expiry {
  const top = heap[0]!;
  const last = heap.pop()!;
  if (heap.length > 0) {
    heap[0] = last;
    siftDown(heap, 0);
  }
  return top;
}

function siftDown(heap: Expiry[], from: number): void {
  const item = heap[from]!;
  let at = from;
  for (;;) {
    let child = 2 * at + 1;
    if (child >= heap.length) break;
    if (child + 1 < heap.length && heap[child + 1]!.expiresAt < heap[child]!.expiresAt) child++;
    if (heap[child]!.expiresAt >= item.expiresAt) break;
    heap[at] = heap[child]!;
    at = child;
  }
  heap[at] = item;
}
