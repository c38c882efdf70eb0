import type { KvStore, RateLimitResult, ReserveResult } from '../port/kv-store.port';
import {
  assertAmount,
  assertDuration,
  assertIdentifier,
  assertInteger,
  assertLimit,
  assertOptionalDelay,
} from '../validation';
import { QuotaLedger } from './quota-ledger';
import { SlidingWindowLog } from './sliding-window-log';

export interface MemoryKvStoreOptions {
  /** Current time in milliseconds; tests pass a fake clock. */
  now?: () => number;
  /** How often expired entries are swept away; 0 disables the timer (expiry stays lazy). */
  sweepIntervalMs?: number;
}

/** A string key as a snapshot keeps it: its value and when it expires (epoch ms; null: never). */
export interface KvSnapshotEntry {
  key: string;
  value: string;
  expiresAt: number | null;
}

type Entry =
  | { kind: 'string'; value: string; expiresAt: number | null }
  | { kind: 'window'; log: SlidingWindowLog; expiresAt: number };

const DEFAULT_SWEEP_INTERVAL_MS = 10_000;

// Same texts as Redis, so callers see one error whichever adapter runs.
const WRONG_TYPE = 'WRONGTYPE Operation against a key holding the wrong kind of value';
const NOT_AN_INTEGER = 'ERR value is not an integer or out of range';

/**
 * The KvStore of the embedded mode: every service of the one process shares an instance.
 * Expired entries are dropped when touched and by a periodic sweep, so idle keys do not pile up.
 */
export class MemoryKvStore implements KvStore {
  private readonly entries = new Map<string, Entry>();
  private readonly ledgers = new Map<string, QuotaLedger>();
  private readonly now: () => number;
  private readonly sweepTimer: NodeJS.Timeout | null;
  private closed = false;
  private writes = 0;

  constructor(options: MemoryKvStoreOptions = {}) {
    this.now = options.now ?? Date.now;
    const sweepIntervalMs = options.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS;
    assertOptionalDelay('sweepIntervalMs', sweepIntervalMs);
    this.sweepTimer = sweepIntervalMs > 0 ? setInterval(() => this.sweep(), sweepIntervalMs).unref() : null;
  }

  async get(key: string): Promise<string | null> {
    this.assertOpen();
    return this.readString(key)?.value ?? null;
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    this.assertOpen();
    if (ttlMs !== undefined) assertDuration('ttlMs', ttlMs);
    this.writes++;
    this.entries.set(key, {
      kind: 'string',
      value,
      expiresAt: ttlMs === undefined ? null : this.now() + ttlMs,
    });
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    this.assertOpen();
    assertDuration('ttlMs', ttlMs);
    if (this.read(key)) return false;
    this.writes++;
    this.entries.set(key, { kind: 'string', value, expiresAt: this.now() + ttlMs });
    return true;
  }

  async take(key: string): Promise<string | null> {
    this.assertOpen();
    const entry = this.readString(key);
    if (!entry) return null;
    this.writes++;
    this.entries.delete(key);
    return entry.value;
  }

  async del(key: string): Promise<void> {
    this.assertOpen();
    if (this.entries.delete(key)) this.writes++;
  }

  async ttl(key: string): Promise<number> {
    this.assertOpen();
    const entry = this.read(key);
    if (!entry) return -2;
    return entry.expiresAt === null ? -1 : entry.expiresAt - this.now();
  }

  async incr(key: string, ttlMs: number, by = 1): Promise<number> {
    this.assertOpen();
    assertDuration('ttlMs', ttlMs);
    assertInteger('by', by);
    const entry = this.readString(key);
    this.writes++;
    if (!entry) {
      this.entries.set(key, { kind: 'string', value: String(by), expiresAt: this.now() + ttlMs });
      return by;
    }
    const current = Number(entry.value);
    if (
      !/^-?\d+$/.test(entry.value) ||
      !Number.isSafeInteger(current) ||
      !Number.isSafeInteger(current + by)
    ) {
      throw new Error(NOT_AN_INTEGER);
    }
    entry.value = String(current + by);
    return current + by;
  }

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    this.assertOpen();
    assertLimit('limit', limit);
    assertDuration('windowMs', windowMs);
    const now = this.now();
    let entry = this.read(key);
    if (entry && entry.kind !== 'window') throw new Error(WRONG_TYPE);
    if (!entry) {
      entry = { kind: 'window', log: new SlidingWindowLog(), expiresAt: now + windowMs };
      this.entries.set(key, entry);
    }
    const result = entry.log.hit(now, limit, windowMs);
    if (result.allowed) entry.expiresAt = now + windowMs;
    return result;
  }

  async reserve(
    account: string,
    reservationId: string,
    amount: number,
    available: number,
    ttlMs: number,
  ): Promise<ReserveResult> {
    this.assertOpen();
    assertIdentifier('account', account);
    assertIdentifier('reservationId', reservationId);
    assertAmount('amount', amount);
    assertInteger('available', available);
    assertDuration('ttlMs', ttlMs);
    let ledger = this.ledgers.get(account);
    if (!ledger) {
      ledger = new QuotaLedger();
      this.ledgers.set(account, ledger);
    }
    const result = ledger.reserve(this.now(), reservationId, amount, available, ttlMs);
    this.forgetIfIdle(account, ledger);
    return result;
  }

  async settle(
    account: string,
    reservationId: string,
    actualAmount: number,
    holdMs: number,
  ): Promise<boolean> {
    this.assertOpen();
    assertIdentifier('account', account);
    assertIdentifier('reservationId', reservationId);
    assertAmount('actualAmount', actualAmount);
    assertOptionalDelay('holdMs', holdMs);
    const ledger = this.ledgers.get(account);
    if (!ledger) return false;
    const settled = ledger.settle(this.now(), reservationId, actualAmount, holdMs);
    this.forgetIfIdle(account, ledger);
    return settled;
  }

  async release(account: string, reservationId: string): Promise<void> {
    this.assertOpen();
    assertIdentifier('account', account);
    assertIdentifier('reservationId', reservationId);
    const ledger = this.ledgers.get(account);
    if (!ledger) return;
    ledger.release(this.now(), reservationId);
    this.forgetIfIdle(account, ledger);
  }

  async outstanding(account: string): Promise<number> {
    this.assertOpen();
    assertIdentifier('account', account);
    const ledger = this.ledgers.get(account);
    if (!ledger) return 0;
    const outstanding = ledger.outstanding(this.now());
    this.forgetIfIdle(account, ledger);
    return outstanding;
  }

  /**
   * Counts the writes to string keys (what a snapshot holds): a saver compares it with the count it
   * last saved at to tell whether anything changed. Rate windows and reservations are not counted.
   */
  get revision(): number {
    return this.writes;
  }

  /**
   * The live string keys (sessions, verification codes, cooldowns, locks), for a restart to restore.
   * Rate windows and quota reservations are left out: they describe calls in flight in this process.
   */
  snapshot(): KvSnapshotEntry[] {
    const now = this.now();
    const entries: KvSnapshotEntry[] = [];
    for (const [key, entry] of this.entries) {
      if (entry.kind === 'string' && !isExpired(entry, now)) {
        entries.push({ key, value: entry.value, expiresAt: entry.expiresAt });
      }
    }
    return entries;
  }

  /** Puts back what a snapshot held, except keys already expired or already set here; returns how many. */
  restore(entries: Iterable<KvSnapshotEntry>): number {
    this.assertOpen();
    const now = this.now();
    let restored = 0;
    for (const { key, value, expiresAt } of entries) {
      if ((expiresAt !== null && expiresAt <= now) || this.read(key)) continue;
      this.entries.set(key, { kind: 'string', value, expiresAt });
      restored++;
    }
    return restored;
  }

  /** Drops every expired key and idle account; returns how many were dropped. */
  sweep(): number {
    const now = this.now();
    let dropped = 0;
    for (const [key, entry] of this.entries) {
      if (isExpired(entry, now)) {
        this.entries.delete(key);
        dropped++;
      }
    }
    for (const [account, ledger] of this.ledgers) {
      if (ledger.isIdle(now)) {
        this.ledgers.delete(account);
        dropped++;
      }
    }
    return dropped;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.entries.clear();
    this.ledgers.clear();
  }

  private read(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && isExpired(entry, this.now())) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private readString(key: string): Extract<Entry, { kind: 'string' }> | undefined {
    const entry = this.read(key);
    if (entry && entry.kind !== 'string') throw new Error(WRONG_TYPE);
    return entry;
  }

  private forgetIfIdle(account: string, ledger: QuotaLedger): void {
    if (ledger.isIdle(this.now())) this.ledgers.delete(account);
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('MemoryKvStore is closed');
  }
}

function isExpired(entry: Entry, now: number): boolean {
  return entry.expiresAt !== null && entry.expiresAt <= now;
}
