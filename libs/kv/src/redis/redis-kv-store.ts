import { Redis } from 'ioredis';
import type { KvStore, RateLimitResult, ReserveResult } from '../port/kv-store.port';
import {
  assertAmount,
  assertDuration,
  assertIdentifier,
  assertInteger,
  assertLimit,
  assertOptionalDelay,
} from '../validation';
import { KV_SCRIPTS, type KvScriptCommands } from './lua-scripts';

export interface RedisKvStoreOptions {
  /** Prepended to every key this store touches (e.g. 'tollgate:'), to share a Redis safely. */
  keyPrefix?: string;
  /**
   * Told once when the connection the store owns is lost (or cannot be made), not at every retry;
   * told again only after it has been ready since. Without it the store stays silent: ioredis itself
   * would print "Unhandled error event" to stderr at every reconnect attempt.
   */
  onConnectionError?: (error: Error) => void;
}

type ScriptedRedis = Redis & KvScriptCommands;

/**
 * KvStore on Redis through ioredis. Built from a URL it owns its connection and close() ends
 * it; built from a client it leaves that client open, since the caller owns it.
 */
export class RedisKvStore implements KvStore {
  private readonly redis: ScriptedRedis;
  private readonly ownsClient: boolean;
  private readonly keyPrefix: string;

  constructor(urlOrClient: string | Redis, options: RedisKvStoreOptions = {}) {
    // Auto-pipelining sends the commands issued in one tick in one write: under load the hot path's
    // reservations and settles share round trips and syscalls instead of taking one each.
    const client =
      typeof urlOrClient === 'string' ? new Redis(urlOrClient, { enableAutoPipelining: true }) : urlOrClient;
    for (const [name, script] of Object.entries(KV_SCRIPTS)) {
      client.defineCommand(name, { numberOfKeys: script.numberOfKeys, lua: script.lua });
    }
    this.redis = client as ScriptedRedis;
    this.ownsClient = typeof urlOrClient === 'string';
    if (this.ownsClient) reportOutagesOnce(client, options.onConnectionError ?? (() => undefined));
    this.keyPrefix = options.keyPrefix ?? '';
  }

  async get(key: string): Promise<string | null> {
    return this.redis.get(this.key(key));
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    if (ttlMs === undefined) {
      await this.redis.set(this.key(key), value);
      return;
    }
    assertDuration('ttlMs', ttlMs);
    await this.redis.set(this.key(key), value, 'PX', ttlMs);
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    assertDuration('ttlMs', ttlMs);
    // One command, atomic on its own: no script needed.
    return (await this.redis.set(this.key(key), value, 'PX', ttlMs, 'NX')) === 'OK';
  }

  async take(key: string): Promise<string | null> {
    return this.redis.tollgateKvTake(this.key(key));
  }

  async del(key: string): Promise<void> {
    await this.redis.del(this.key(key));
  }

  async ttl(key: string): Promise<number> {
    return this.redis.pttl(this.key(key));
  }

  async incr(key: string, ttlMs: number, by = 1): Promise<number> {
    assertDuration('ttlMs', ttlMs);
    assertInteger('by', by);
    return this.redis.tollgateKvIncr(this.key(key), by, ttlMs);
  }

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    assertLimit('limit', limit);
    assertDuration('windowMs', windowMs);
    const [allowed, remaining, retryAfterMs] = await this.redis.tollgateKvHit(this.key(key), limit, windowMs);
    return { allowed: allowed === 1, remaining, retryAfterMs };
  }

  async reserve(
    account: string,
    reservationId: string,
    amount: number,
    available: number,
    ttlMs: number,
  ): Promise<ReserveResult> {
    assertIdentifier('reservationId', reservationId);
    assertAmount('amount', amount);
    assertInteger('available', available);
    assertDuration('ttlMs', ttlMs);
    const [ok, outstanding] = await this.redis.tollgateKvReserve(
      ...this.quotaKeys(account),
      reservationId,
      amount,
      available,
      ttlMs,
    );
    return { ok: ok === 1, outstanding };
  }

  async settle(
    account: string,
    reservationId: string,
    actualAmount: number,
    holdMs: number,
  ): Promise<boolean> {
    assertIdentifier('reservationId', reservationId);
    assertAmount('actualAmount', actualAmount);
    assertOptionalDelay('holdMs', holdMs);
    return (
      (await this.redis.tollgateKvSettle(...this.quotaKeys(account), reservationId, actualAmount, holdMs)) ===
      1
    );
  }

  async release(account: string, reservationId: string): Promise<void> {
    assertIdentifier('reservationId', reservationId);
    await this.redis.tollgateKvRelease(...this.quotaKeys(account), reservationId);
  }

  async outstanding(account: string): Promise<number> {
    return this.redis.tollgateKvOutstanding(...this.quotaKeys(account));
  }

  async close(): Promise<void> {
    if (!this.ownsClient || this.redis.status === 'end') return;
    // QUIT would wait in the offline queue for a Redis that is away; stop reconnecting instead.
    if (this.redis.status === 'ready') await this.redis.quit();
    else this.redis.disconnect();
  }

  private key(key: string): string {
    return this.keyPrefix + key;
  }

  /** The hash tag keeps an account's three keys in one slot, as a Redis Cluster script needs. */
  private quotaKeys(account: string): [expiry: string, amount: string, total: string] {
    assertIdentifier('account', account);
    const base = this.key(`quota:{${account}}`);
    return [`${base}:expiry`, `${base}:amount`, `${base}:total`];
  }
}

/** Commands wait in ioredis's offline queue while it reconnects; an outage needs saying once, not per attempt. */
function reportOutagesOnce(client: Redis, report: (error: Error) => void): void {
  let reported = false;
  client.on('error', (error: Error) => {
    if (reported) return;
    reported = true;
    report(error);
  });
  client.on('ready', () => (reported = false));
}
