import type { KvStore } from '@tollgate/kv';

/** One call's claim on one account (a user's balance or a limited key's quota). Ends once. */
export interface AccountClaim {
  /**
   * What the account had left once this claim was taken, as this replica saw it at its last store
   * round trip (other replicas' later claims are not in it): for rate-limit headers.
   */
  readonly remaining: number;
  /** The real cost replaces the estimate; false when the store had already dropped the claim. */
  settle(actual: number): Promise<boolean>;
  /** Nothing was served: the estimate is freed. */
  release(): Promise<void>;
}

/** Takes claims on accounts in the shared store. */
export interface AccountClaims {
  /**
   * How much later than its call's end a claim's hold may start in the store (a leased claim is
   * settled with its lease, not when its call ends): for telling a refused call when holds free.
   */
  readonly holdStartDelayMs: number;
  /**
   * Undefined when `available` cannot cover `amount` on top of what is outstanding. A claim taken
   * without a store round trip may come back as it is rather than in a promise.
   */
  claim(
    account: string,
    callId: string,
    amount: number,
    available: number,
  ): AccountClaim | undefined | Promise<AccountClaim | undefined>;
  /** Hands back whatever this replica still holds (shutdown). */
  close(): Promise<void>;
}

export interface ClaimPolicy {
  /** A reservation nobody settles (crashed replica) frees itself after this long. */
  reservationTtlMs: number;
  /** How long a settled charge keeps counting against the balance: the time billing needs to reflect it. */
  holdMs: number;
}

/** One store reservation per call: two round trips a call (reserve, settle). */
export class PerCallClaims implements AccountClaims {
  readonly holdStartDelayMs = 0;

  constructor(
    private readonly kv: KvStore,
    private readonly policy: ClaimPolicy,
  ) {}

  async claim(
    account: string,
    callId: string,
    amount: number,
    available: number,
  ): Promise<AccountClaim | undefined> {
    const reserved = await this.kv.reserve(account, callId, amount, available, this.policy.reservationTtlMs);
    if (!reserved.ok) return undefined;
    return new PerCallClaim(
      this.kv,
      account,
      callId,
      this.policy.holdMs,
      Math.max(0, available - reserved.outstanding),
    );
  }

  async close(): Promise<void> {}
}

class PerCallClaim implements AccountClaim {
  private done = false;

  constructor(
    private readonly kv: KvStore,
    private readonly account: string,
    private readonly id: string,
    private readonly holdMs: number,
    readonly remaining: number,
  ) {}

  async settle(actual: number): Promise<boolean> {
    if (this.done) return true;
    this.done = true;
    return this.kv.settle(this.account, this.id, actual, this.holdMs);
  }

  async release(): Promise<void> {
    if (this.done) return;
    this.done = true;
    await this.kv.release(this.account, this.id);
  }
}
