import { ErrorCode } from '@tollgate/contracts';
import type { Caller } from '../access/caller-access';
import { RelayError } from '../errors/relay-error';
import type { AccountClaim, AccountClaims } from './account-claims';

export interface BalanceLookup {
  /** The user's balance as billing last published it (quota units); undefined when it has none yet. */
  quotaOf(userId: number): number | undefined;
}

export type RefusalReason = 'user_balance' | 'token_quota';

export class QuotaRefusedError extends RelayError {
  constructor(
    readonly reason: RefusalReason,
    /** A sentence on what the balance would afford, appended to the message. */
    detail?: string,
  ) {
    const base =
      reason === 'user_balance'
        ? 'Insufficient balance for this request: top up your account'
        : 'This API key does not have enough quota left for this request';
    super(ErrorCode.InsufficientQuota, detail === undefined ? base : `${base}. ${detail}`);
  }
}

export const userAccount = (userId: number): string => `user:${userId}`;
export const tokenAccount = (tokenId: number): string => `token:${tokenId}`;

/** One call's hold on a user's balance and, for a limited key, on the key's quota. */
export class Reservation {
  constructor(private readonly claims: readonly AccountClaim[]) {}

  /**
   * Replaces the estimate by the real cost, kept as a hold until billing's balance includes it.
   * Returns false when the reservation had already expired (the call outlived its TTL).
   */
  settle(actual: number): Promise<boolean> {
    // Most calls hold the user's balance alone: its claim's own promise, no array or Promise.all per call.
    if (this.claims.length === 1) return this.claims[0]!.settle(actual);
    return Promise.all(this.claims.map((claim) => claim.settle(actual))).then((results) =>
      results.every(Boolean),
    );
  }

  /** Frees the estimate without charging: the call failed before anything was served. */
  async release(): Promise<void> {
    await Promise.all(this.claims.map((claim) => claim.release()));
  }
}

function userReservation(forUser: AccountClaim | undefined): Reservation {
  if (forUser === undefined) throw new QuotaRefusedError('user_balance');
  return new Reservation([forUser]);
}

/**
 * Reserves a call's estimate in the shared store before anything goes upstream. The store checks
 * `outstanding + estimate <= balance` atomically, so however many replicas serve a user at once, the
 * reservations in flight never add up to more than the balance billing published.
 */
export class QuotaReservations {
  /** What the caller may spend as billing last published it: the balance, or a limited key's quota if lower. */
  available(caller: Caller): number {
    const balance = this.balances.quotaOf(caller.user.id) ?? 0;
    const key = caller.token;
    return key === null || key.unlimited_quota ? balance : Math.min(balance, key.remain_quota);
  }

  constructor(
    private readonly claims: AccountClaims,
    private readonly balances: BalanceLookup,
  ) {}

  /** Throws QuotaRefusedError (402) when the user's balance or the key's quota cannot cover `amount`. */
  reserve(caller: Caller, reservationId: string, amount: number): Reservation | Promise<Reservation> {
    const key = caller.token;
    if (key !== null && !key.unlimited_quota) return this.reserveWithKey(caller, key, reservationId, amount);
    const available = this.balances.quotaOf(caller.user.id) ?? 0;
    const forUser = this.claims.claim(userAccount(caller.user.id), reservationId, amount, available);
    // A claim from an open lease comes at once, and so does the reservation: no promise per call.
    return forUser instanceof Promise ? forUser.then(userReservation) : userReservation(forUser);
  }

  private async reserveWithKey(
    caller: Caller,
    key: NonNullable<Caller['token']>,
    reservationId: string,
    amount: number,
  ): Promise<Reservation> {
    const user = userAccount(caller.user.id);
    const available = this.balances.quotaOf(caller.user.id) ?? 0;
    // Both accounts at once; each check is atomic on its own, and the side that succeeded is
    // released when the other refuses.
    const token = tokenAccount(key.id);
    const [forUser, forToken] = await Promise.allSettled([
      this.claims.claim(user, reservationId, amount, available),
      this.claims.claim(token, reservationId, amount, key.remain_quota),
    ]);
    const userClaim = forUser.status === 'fulfilled' ? forUser.value : undefined;
    const tokenClaim = forToken.status === 'fulfilled' ? forToken.value : undefined;
    if (userClaim !== undefined && tokenClaim !== undefined) return new Reservation([userClaim, tokenClaim]);
    await Promise.all([userClaim?.release(), tokenClaim?.release()]);
    if (forUser.status === 'rejected') throw forUser.reason;
    if (forToken.status === 'rejected') throw forToken.reason;
    throw new QuotaRefusedError(userClaim !== undefined ? 'token_quota' : 'user_balance');
  }

  /** Hands back what this replica still holds in the store. */
  close(): Promise<void> {
    return this.claims.close();
  }
}
