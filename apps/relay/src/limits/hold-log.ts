interface Hold {
  amount: number;
  /** When the store stops counting it (the clock of the log's caller). */
  freesAt: number;
}

/** One account's holds, oldest first; `head` skips the expired ones until the array is compacted. */
interface AccountHolds {
  holds: Hold[];
  head: number;
}

/** Every this many holds added, accounts whose holds have all expired are forgotten. */
const SWEEP_EVERY = 4096;

/**
 * When the calls this replica let through stop counting against each per-minute limit.
 *
 * A call's request (and its tokens) count for a whole window after it ends, so after a burst nothing
 * frees before the first call of the burst is a minute old: a refused call must be told that, not
 * the share of the minute one request is worth, or a client retrying after `Retry-After` is refused
 * again. The store keeps no time per hold that a refusal could read, so the replica remembers the
 * holds it started there (a call's charge, or a lease's when it is settled). They are added in the
 * order they free (each is the moment the store took it plus the same hold), so each account's list
 * is a queue.
 */
export class HoldLog {
  private readonly accounts = new Map<string, AccountHolds>();
  private addedSinceSweep = 0;

  add(account: string, amount: number, freesAt: number, now: number): void {
    let entry = this.accounts.get(account);
    if (entry === undefined) {
      entry = { holds: [], head: 0 };
      this.accounts.set(account, entry);
    } else {
      this.dropExpired(entry, now);
    }
    entry.holds.push({ amount, freesAt });
    if (++this.addedSinceSweep >= SWEEP_EVERY) this.sweep(now);
  }

  /**
   * How long until holds of at least `amount` on the account have freed; undefined when this replica
   * holds less than that (the rest is held by calls still running or by other replicas).
   */
  msUntilFreed(account: string, amount: number, now: number): number | undefined {
    const entry = this.accounts.get(account);
    if (entry === undefined) return undefined;
    this.dropExpired(entry, now);
    let freed = 0;
    for (let index = entry.head; index < entry.holds.length; index++) {
      const hold = entry.holds[index]!;
      freed += hold.amount;
      if (freed >= amount) return hold.freesAt - now;
    }
    return undefined;
  }

  private dropExpired(entry: AccountHolds, now: number): void {
    while (entry.head < entry.holds.length && entry.holds[entry.head]!.freesAt <= now) entry.head++;
    if (entry.head > 64 && entry.head * 2 > entry.holds.length) {
      entry.holds = entry.holds.slice(entry.head);
      entry.head = 0;
    }
  }

  private sweep(now: number): void {
    this.addedSinceSweep = 0;
    for (const [account, entry] of this.accounts) {
      this.dropExpired(entry, now);
      if (entry.head === entry.holds.length) this.accounts.delete(account);
    }
  }
}
