import type { CatalogChannel } from '@tollgate/contracts';
import type { QueueWaitOutcome } from './channel-queues';

/**
 * What the router tells the rest of relay. Called synchronously from inside the router's
 * bookkeeping, so a hook must return quickly and must not throw.
 */
export interface RoutingHooks {
  /** The channel's key or account is dead; the router has already dropped it from plans. */
  onAutoBan?(channel: CatalogChannel, reason: string, status: number | undefined): void;
  /** The channel's circuit opened (false) or closed again (true). */
  onHealthChange?(channel: CatalogChannel, healthy: boolean): void;
  /** A channel that had a circuit left the table: whatever reported its health may drop it. */
  onChannelGone?(channel: CatalogChannel): void;
  /** How many requests now wait for a slot on the channel. */
  onQueueDepth?(channelId: number, depth: number): void;
  /** A request left the channel's queue after waiting this long (never called for one that did not wait). */
  onQueueWait?(channelId: number, seconds: number, outcome: QueueWaitOutcome): void;
}
