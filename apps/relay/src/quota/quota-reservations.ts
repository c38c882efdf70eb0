import { ErrorCode } from '@tollgate/contracts';
import type { KvStore } from '@tollgate/kv';
import type { Caller } from '../access/caller-access';
import { RelayError } from '../errors/relay-error';

export interface QuotaPolicy {
  /** A reservation nobody settles (crashed replica) frees itself after this long. */
  reservationTtlMs: number;
  /** How long a settled charge keeps counting against the balance: the time billing needs to reflect it. */
  holdMs: number;
}

export interface BalanceLookup {
  /** The user's balance as billing last published it (quota units); undefined when it has none yet. */
  quotaOf(userId: number): number | undefined;
}

export type RefusalReason = 'user_balance' | 'token_quota';

export class QuotaRefusedError extends RelayError {
  constructor(readonly reason: RefusalReason) {
    super(
      ErrorCode.InsufficientQuota,
      reason === 'user_balance'
        ? 'Insufficient balance for this request: top up your account'
        : 'This API key does not have enough quota left for this request',
    );
  }
}

export const userAccount = (userId: number): string => `user:${userId}`;
export const tokenAccount = (tokenId: number): string => `token:${tokenId}`;

/** One call's hold on a user's balance and, for a limited key, on the key's quota. */
export class Reservation {
  private done = false;

  constructor(
    private readonly kv: KvStore,
    private readonly id: string,
    private readonly accounts: readonly string[],
    private readonly holdMs: number,
  ) {}

  /**
   * Replaces the estimate by the real cost, kept as a hold until billing's balance includes it.
   * Returns false when the reservation had already expired (the call outlived its TTL).
   */
  async settle(actual: number): Promise<boolean> {
    if (this.done) return true;
    this.done = true;
    const results = await Promise.all(
      this.accounts.map((account) => this.kv.settle(account, this.id, actual, this.holdMs)),
    );
    return results.every(Boolean);
  }

  /** Frees the estimate without charging: the call failed before anything was served. */
  async release(): Promise<void> {
    if (this.done) return;
    this.done = true;
    await Promise.all(this.accounts.map((account) => this.kv.release(account, this.id)));
  }
}

/**
 * Reserves a call's estimate in the shared store before anything goes upstream. The store checks
 * `outstanding + estimate <= balance` atomically, so however many replicas serve a user at once, the
 * reservations in flight never add up to more than the balance billing published.
 */
export class QuotaReservations {
  constructor(
    private readonly kv: KvStore,
    private readonly balances: BalanceLookup,
    private readonly policy: QuotaPolicy,
  ) {}

  /** Throws QuotaRefusedError (402) when the user's balance or the key's quota cannot cover `amount`. */
  async reserve(caller: Caller, reservationId: string, amount: number): Promise<Reservation> {
    const user = userAccount(caller.user.id);
    const available = this.balances.quotaOf(caller.user.id) ?? 0;
    const { reservationTtlMs: ttl, holdMs } = this.policy;
    if (caller.token.unlimited_quota) {
      const forUser = await this.kv.reserve(user, reservationId, amount, available, ttl);
      if (!forUser.ok) throw new QuotaRefusedError('user_balance');
      return new Reservation(this.kv, reservationId, [user], holdMs);
    }
    // Both accounts at once (one round trip when pipelined); each check is atomic on its own, and the
    // side that succeeded is released when the other refuses.
    const token = tokenAccount(caller.token.id);
    const [forUser, forToken] = await Promise.allSettled([
      this.kv.reserve(user, reservationId, amount, available, ttl),
      this.kv.reserve(token, reservationId, amount, caller.token.remain_quota, ttl),
    ]);
    const userHeld = forUser.status === 'fulfilled' && forUser.value.ok;
    const tokenHeld = forToken.status === 'fulfilled' && forToken.value.ok;
    if (userHeld && tokenHeld) return new Reservation(this.kv, reservationId, [user, token], holdMs);
    await Promise.all([
      userHeld ? this.kv.release(user, reservationId) : undefined,
      tokenHeld ? this.kv.release(token, reservationId) : undefined,
    ]);
    if (forUser.status === 'rejected') throw forUser.reason;
    if (forToken.status === 'rejected') throw forToken.reason;
    throw new QuotaRefusedError(userHeld ? 'token_quota' : 'user_balance');
  }
}
