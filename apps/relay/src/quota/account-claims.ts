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

/** Told, once the store has it, that `amount` on `account` now counts for `holdMs`. */
export type HoldListener = (account: string, amount: number, holdMs: number) => void;

/** Takes claims on accounts in the shared store. */
export interface AccountClaims {
  /**
   * Tells `listener` of every hold this replica starts in the store (a call's charge, or a lease's once
   * it is settled, which may be after its calls ended): for telling a refused call when holds free.
   */
  onHold(listener: HoldListener): void;
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
  private holdListener: HoldListener | undefined;

  constructor(
    private readonly kv: KvStore,
    private readonly policy: ClaimPolicy,
  ) {}

  onHold(listener: HoldListener): void {
    this.holdListener = listener;
  }

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
      this.holdListener,
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
    private readonly holdListener: HoldListener | undefined,
  ) {}

  async settle(actual: number): Promise<boolean> {
    if (this.done) return true;
    this.done = true;
    const existed = await this.kv.settle(this.account, this.id, actual, this.holdMs);
    if (existed && actual > 0 && this.holdMs > 0) this.holdListener?.(this.account, actual, this.holdMs);
    return existed;
  }

  async release(): Promise<void> {
    if (this.done) return;
    this.done = true;
    await this.kv.release(this.account, this.id);
  }
}
