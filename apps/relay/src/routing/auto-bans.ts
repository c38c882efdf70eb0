import type { CatalogChannel } from '@tollgate/contracts';

/**
 * Channels this relay has auto-banned, each with the status it had at that moment. The ban holds
 * until the channel's status changes in the table (admin disabled it, then re-enabled it, or the
 * periodic test did), so one dead key produces one ban, however many requests hit it meanwhile.
 */
export class AutoBans {
  private readonly statusAtBan = new Map<number, number>();

  has(channelId: number): boolean {
    return this.statusAtBan.size !== 0 && this.statusAtBan.has(channelId);
  }

  /** Returns true when the channel was not banned yet. */
  ban(channel: CatalogChannel): boolean {
    if (this.statusAtBan.has(channel.id)) return false;
    this.statusAtBan.set(channel.id, channel.status);
    return true;
  }

  /** Lifts the ban once the table shows the channel with another status. */
  observe(channel: CatalogChannel): void {
    const status = this.statusAtBan.get(channel.id);
    if (status !== undefined && status !== channel.status) this.statusAtBan.delete(channel.id);
  }

  /** Forgets channels that left the table. */
  retainOnly(liveIds: ReadonlySet<number>): void {
    for (const id of this.statusAtBan.keys()) if (!liveIds.has(id)) this.statusAtBan.delete(id);
  }
}
