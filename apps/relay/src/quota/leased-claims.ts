import { randomUUID } from 'node:crypto';
import type { KvStore } from '@tollgate/kv';
import type { Logger } from '@tollgate/platform';
import type { AccountClaim, AccountClaims, ClaimPolicy, HoldListener } from './account-claims';

export interface LeasePolicy extends ClaimPolicy {
  /** A lease takes new calls for this long, then is handed back as soon as its calls have ended. */
  leaseMs: number;
  /** A lease covers up to this many calls of the size that opened it. */
  callsPerLease: number;
}

/**
 * A lease never holds more than this share of what the account has available, so the part other
 * replicas cannot use while it is open stays small (and is back within one lease period).
 */
const LARGEST_SHARE_OF_AVAILABLE = 64;

/** One store reservation that several calls of one account spend from locally. */
class Lease {
  /** Estimates of calls in flight plus the real cost of calls that ended. */
  committed = 0;
  /** Real cost of the calls that ended. */
  charged = 0;
  inFlight = 0;
  retired = false;
  closed = false;

  constructor(
    readonly account: string,
    readonly id: string,
    readonly granted: number,
    readonly openedAt: number,
    /** What the account had left beside this lease when it was opened. */
    readonly leftBeside: number,
  ) {}

  fits(amount: number): boolean {
    return !this.retired && this.committed + amount <= this.granted;
  }
}

/**
 * Claims served from leases: a replica reserves a slice of an account in the store once (up to
 * `callsPerLease` times the call's estimate, never more than 1/64 of what is available) and spends
 * it locally, so most calls make no store round trip at all. A lease stops taking calls after
 * `leaseMs` or once it is spent, and when its last call has ended it is settled in the store to the
 * sum of the real costs, kept as a hold like a single call's charge.
 *
 * A lease past its time is retired by the account's next call, which sends its settle to the store
 * together with the next lease's reservation (one wake-up for both answers); only a lease no call
 * comes for is retired by a timer, half a period later (within 1.5 periods, as before).
 *
 * The store's check still bounds every replica together: leases are reservations, so the sum of
 * open leases and holds never exceeds what billing published. What a lease costs is timing: its
 * unspent part counts against the account until it is handed back, and a balance lowered outside
 * usage (an admin adjustment) reaches calls already covered by a lease only when it retires.
 */
export class LeasedClaims implements AccountClaims {
  private readonly current = new Map<string, Lease>();
  private readonly opening = new Map<string, Promise<Lease | undefined>>();
  private readonly closing = new Set<Promise<void>>();
  private readonly replicaId = randomUUID();
  /** Armed only while a lease is open, for the oldest one's retirement: an idle relay is not woken. */
  private timer: NodeJS.Timeout | undefined;
  private sequence = 0;
  private holdListener: HoldListener | undefined;

  constructor(
    private readonly kv: KvStore,
    private readonly policy: LeasePolicy,
    private readonly logger: Pick<Logger, 'warn'>,
    private readonly now: () => number = () => performance.now(),
  ) {}

  onHold(listener: HoldListener): void {
    this.holdListener = listener;
  }

  /** Most calls fit the open lease: they get their claim at once, without a promise or a turn of the loop. */
  claim(
    account: string,
    _callId: string,
    amount: number,
    available: number,
  ): AccountClaim | undefined | Promise<AccountClaim | undefined> {
    const lease = this.current.get(account);
    if (lease?.fits(amount) && !this.expired(lease, this.now())) return this.take(lease, amount);
    return this.claimFromStore(account, amount, available);
  }

  private async claimFromStore(
    account: string,
    amount: number,
    available: number,
  ): Promise<AccountClaim | undefined> {
    for (;;) {
      const pending = this.opening.get(account);
      if (pending === undefined) break;
      // Another call is already asking the store for this account: its lease may cover this one too.
      await pending;
      const lease = this.current.get(account);
      if (lease?.fits(amount) && !this.expired(lease, this.now())) return this.take(lease, amount);
    }
    const opened = this.open(account, amount, available);
    this.opening.set(account, opened);
    let lease: Lease | undefined;
    try {
      lease = await opened;
    } finally {
      this.opening.delete(account);
    }
    return lease === undefined ? undefined : this.take(lease, amount);
  }

  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const lease of [...this.current.values()]) this.retire(lease);
    await Promise.all(this.closing);
  }

  private async open(account: string, amount: number, available: number): Promise<Lease | undefined> {
    const previous = this.current.get(account);
    if (previous !== undefined) this.retire(previous);
    const id = `lease:${this.replicaId}:${++this.sequence}`;
    const wanted = leaseSize(amount, available, this.policy.callsPerLease);
    const ttl = this.policy.reservationTtlMs;
    let granted = wanted;
    let reserved = await this.kv.reserve(account, id, wanted, available, ttl);
    if (!reserved.ok && wanted > amount) {
      // Too little left for a whole lease: this call alone may still fit.
      granted = amount;
      reserved = await this.kv.reserve(account, id, amount, available, ttl);
    }
    if (!reserved.ok) return undefined;
    const lease = new Lease(account, id, granted, this.now(), Math.max(0, available - reserved.outstanding));
    this.current.set(account, lease);
    this.armTimer();
    return lease;
  }

  private take(lease: Lease, amount: number): AccountClaim {
    lease.committed += amount;
    lease.inFlight += 1;
    return new LeaseClaim(lease, amount, this.claimEnded);
  }

  private readonly claimEnded = (lease: Lease): void => this.closeIfDrained(lease);

  private expired(lease: Lease, now: number): boolean {
    return now - lease.openedAt >= this.policy.leaseMs;
  }

  private retireOld(): void {
    this.timer = undefined;
    const now = this.now();
    for (const lease of [...this.current.values()]) {
      if (this.expired(lease, now)) this.retire(lease);
    }
    this.armTimer();
  }

  /** One timer, for the oldest open lease (leases open in time order, so it is the first). */
  private armTimer(): void {
    if (this.timer !== undefined) return;
    const oldest = this.current.values().next();
    if (oldest.done) return;
    const retireAt = oldest.value.openedAt + this.policy.leaseMs * 1.5;
    this.timer = setTimeout(() => this.retireOld(), Math.max(1, Math.ceil(retireAt - this.now())));
    this.timer.unref();
  }

  private retire(lease: Lease): void {
    lease.retired = true;
    if (this.current.get(lease.account) === lease) {
      const wasOldest = this.current.keys().next().value === lease.account;
      this.current.delete(lease.account);
      if (wasOldest) {
        // The timer was for this lease: the next one's is later, or there is none.
        clearTimeout(this.timer);
        this.timer = undefined;
        this.armTimer();
      }
    }
    this.closeIfDrained(lease);
  }

  /** A retired lease whose calls have all ended becomes a hold of what they cost (or nothing). */
  private closeIfDrained(lease: Lease): void {
    if (!lease.retired || lease.inFlight > 0 || lease.closed) return;
    lease.closed = true;
    const closing = this.settleInStore(lease).finally(() => this.closing.delete(closing));
    this.closing.add(closing);
  }

  private async settleInStore(lease: Lease): Promise<void> {
    try {
      if (lease.charged === 0) {
        await this.kv.release(lease.account, lease.id);
        return;
      }
      const existed = await this.kv.settle(lease.account, lease.id, lease.charged, this.policy.holdMs);
      if (!existed)
        this.logger.warn({ account: lease.account }, 'a quota lease had expired before it was settled');
      else if (this.policy.holdMs > 0) this.holdListener?.(lease.account, lease.charged, this.policy.holdMs);
    } catch (error) {
      // The lease expires on its own (reservation TTL); billing charges from the usage events anyway.
      this.logger.warn(
        { account: lease.account, err: (error as Error).name },
        'a quota lease could not be settled in the store',
      );
    }
  }
}

/** Calls' worth of the estimate, capped by a share of what is available, never below the call itself. */
export function leaseSize(amount: number, available: number, callsPerLease: number): number {
  const cap = Math.floor(available / LARGEST_SHARE_OF_AVAILABLE);
  return Math.max(amount, Math.min(amount * callsPerLease, cap));
}

const SETTLED = Promise.resolve(true);
const RELEASED = Promise.resolve();

/** One call's share of a lease: one object a call (closures per call were ~0.3 KB of its garbage). */
class LeaseClaim implements AccountClaim {
  readonly remaining: number;
  private done = false;

  constructor(
    private readonly lease: Lease,
    private readonly amount: number,
    private readonly ended: (lease: Lease) => void,
  ) {
    this.remaining = lease.leftBeside + lease.granted - lease.committed;
  }

  settle(actual: number): Promise<boolean> {
    this.end(actual);
    return SETTLED;
  }

  release(): Promise<void> {
    this.end(0);
    return RELEASED;
  }

  private end(cost: number): void {
    if (this.done) return;
    this.done = true;
    const lease = this.lease;
    lease.committed += cost - this.amount;
    lease.charged += cost;
    lease.inFlight -= 1;
    this.ended(lease);
  }
}
