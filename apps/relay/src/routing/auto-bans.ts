import type { CatalogChannel } from '@tollgate/contracts';

interface BannedAs {
  status: number;
  key: string;
}

/**
 * Channels this relay has auto-banned, each as it was at that moment. The ban holds until the
 * table shows the channel with another status (auto-disabled, then re-enabled by an operator or the
 * periodic test) or another key (an operator replaced it), so one dead key produces one ban,
 * however many requests hit it meanwhile.
 */
export class AutoBans {
  private readonly banned = new Map<number, BannedAs>();

  has(channelId: number): boolean {
    return this.banned.size !== 0 && this.banned.has(channelId);
  }

  /** Returns true when the channel was not banned yet. */
  ban(channel: CatalogChannel): boolean {
    if (this.banned.has(channel.id)) return false;
    this.banned.set(channel.id, { status: channel.status, key: channel.key_encrypted });
    return true;
  }

  /** Lifts the ban once the table shows the channel with another status or key. */
  observe(channel: CatalogChannel): void {
    const as = this.banned.get(channel.id);
    if (as && (as.status !== channel.status || as.key !== channel.key_encrypted))
      this.banned.delete(channel.id);
  }

  /** Forgets channels that left the table. */
  retainOnly(liveIds: ReadonlySet<number>): void {
    for (const id of this.banned.keys()) if (!liveIds.has(id)) this.banned.delete(id);
  }
}
