/**
 * What services need from Redis. Two adapters (ioredis and in-memory) implement it and pass
 * one contract suite. All durations are milliseconds; all amounts are integers (quota units).
 */

export interface RateLimitResult {
  allowed: boolean;
  /** Hits left in the current window after this one (0 when refused). */
  remaining: number;
  /** When refused: how long until a hit would be allowed. 0 when allowed. */
  retryAfterMs: number;
}

export type ReserveResult =
  | { ok: true; /** Sum of live reservations and holds after this one. */ outstanding: number }
  | { ok: false; outstanding: number };

export interface KvStore {
  get(key: string): Promise<string | null>;
  /** Sets a value, with a time to live when `ttlMs` is given. */
  set(key: string, value: string, ttlMs?: number): Promise<void>;
  /** Sets only if absent (one-time codes, OAuth state, locks). True when it was set. */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Deletes and returns the value atomically (consume a one-time state). */
  take(key: string): Promise<string | null>;
  del(key: string): Promise<void>;
  /** Remaining time to live, -1 without expiry, -2 missing. */
  ttl(key: string): Promise<number>;
  /** Increments a counter; the TTL is set when the counter is created. Returns the new value. */
  incr(key: string, ttlMs: number, by?: number): Promise<number>;
  /** Sliding-window limit: at most `limit` hits in any `windowMs`. Refused hits are not counted. */
  hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult>;

  /**
   * Quota reservation for one account. Atomically: drop expired entries, then add a
   * reservation of `amount` if `outstanding + amount <= available`, where outstanding is the
   * sum of the account's live reservations and holds. A reservation expires after `ttlMs`
   * (a crashed holder frees it). Reserving an id that exists is idempotent.
   */
  reserve(
    account: string,
    reservationId: string,
    amount: number,
    available: number,
    ttlMs: number,
  ): Promise<ReserveResult>;
  /**
   * Replaces a reservation with the real cost. With `holdMs > 0` the cost stays counted as a
   * hold for that long (until the balance read model reflects the charge); with 0 it is dropped.
   * Returns false when the reservation was unknown or had expired.
   */
  settle(account: string, reservationId: string, actualAmount: number, holdMs: number): Promise<boolean>;
  /** Drops a reservation or hold without charging. */
  release(account: string, reservationId: string): Promise<void>;
  /** Sum of live reservations and holds. */
  outstanding(account: string): Promise<number>;

  close(): Promise<void>;
}

export const KV_STORE = Symbol('KV_STORE');
