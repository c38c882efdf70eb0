import type { CatalogChannel } from '@tollgate/contracts';
import type { AttemptFailure } from './attempt-failure';
import { AutoBans } from './auto-bans';
import { CandidateIndex } from './candidate-index';
import { ChannelBreakers, type HeldChannel } from './channel-breakers';
import { ChannelQueues, type Release } from './channel-queues';
import { classifyFailure } from './failure-classification';
import type { RouteAttempt } from './route-attempt';
import type { RoutingHooks } from './routing-hooks';
import { resolveRoutingOptions, type RoutingOptions } from './routing-options';
import { appendWeightedOrder } from './weighted-order';
import type { CallAbort } from '../upstream/call-abort';

/**
 * The channel table the router reads: relay's catalog.channel read model, or any map of channels.
 * With `onChange` (the read model has it) or a `version` that grows on every change, the candidate
 * index is rebuilt only after a change; a table with neither is re-read on every plan.
 */
export interface ChannelTable {
  entries(): Iterable<[string, CatalogChannel]>;
  onChange?(listener: (key: string, value: CatalogChannel | undefined) => void): () => void;
  readonly version?: number;
}

/**
 * Chooses the channels for a request and keeps the per-channel state that choice depends on:
 * circuit breakers, auto-bans and concurrency queues. plan() is the hot path: two map reads and
 * O(candidates) work, allocating only the returned list.
 */
export class ChannelRouter {
  private readonly options: RoutingOptions;
  private readonly bans = new AutoBans();
  private readonly breakers: ChannelBreakers;
  private readonly queues: ChannelQueues;
  private readonly unsubscribe: (() => void) | undefined;
  private index: CandidateIndex | undefined;
  private indexedVersion: number | undefined;
  private scratch = new Uint8Array(0);
  private readonly admits = (channel: CatalogChannel): boolean =>
    !this.bans.has(channel.id) && this.breakers.admits(channel.id);

  constructor(
    private readonly channels: ChannelTable,
    options?: Partial<RoutingOptions>,
    private readonly hooks: RoutingHooks = {},
    private readonly random: () => number = Math.random,
  ) {
    this.options = resolveRoutingOptions(options);
    this.breakers = new ChannelBreakers(
      this.options.breaker,
      hooks.onHealthChange?.bind(hooks),
      hooks.onChannelGone?.bind(hooks),
    );
    this.queues = new ChannelQueues(
      this.options,
      hooks.onQueueDepth?.bind(hooks),
      hooks.onQueueWait?.bind(hooks),
    );
    if (typeof channels.onChange === 'function') {
      this.unsubscribe = channels.onChange((_key, channel) => {
        this.index = undefined;
        if (channel) this.bans.observe(channel);
      });
    }
  }

  /**
   * The channels to try for `model` on behalf of `group`, in order: highest priority first,
   * weighted random within a priority, then on into lower priorities; at most maxRetries + 1.
   * Empty when no enabled, healthy channel of the group serves the model.
   */
  plan(model: string, group: string): RouteAttempt[] {
    const bands = this.currentIndex().bands(model, group);
    const limit = this.options.maxRetries + 1;
    const attempts: RouteAttempt[] = [];
    for (let i = 0; i < bands.length && attempts.length < limit; i++) {
      appendWeightedOrder(bands[i], this.admits, this.random, limit, attempts, this.scratch);
    }
    return attempts;
  }

  /** Whether some channel of `group`, enabled or not, serves `model` (CandidateIndex.lists). */
  listsModel(model: string, group: string): boolean {
    return this.currentIndex().lists(model, group);
  }

  /**
   * Waits for a slot on the channel (immediately for max_concurrency 0). Resolves with the
   * slot's release, which may be called any number of times; rejects with QueueFullError,
   * QueueTimeoutError, or CallAbortedError when the call is aborted while it waits.
   */
  acquire(channel: CatalogChannel, group: string, abort?: CallAbort): Promise<Release> {
    return this.queues.acquire(channel, group, abort);
  }

  /** Whether another channel may take over after this failure (if nothing reached the client yet). */
  isRetriable(failure: AttemptFailure): boolean {
    return classifyFailure(failure).retriable;
  }

  recordSuccess(channel: CatalogChannel): void {
    this.breakers.recordSuccess(channel);
  }

  /**
   * Auto-bans the channel when the failure says its key or quota is gone and the channel allows it;
   * otherwise counts upstream trouble against its circuit and anything else as proof it is up.
   */
  recordFailure(channel: CatalogChannel, failure: AttemptFailure): void {
    const verdict = classifyFailure(failure);
    if (verdict.fault && channel.auto_ban) {
      if (this.bans.ban(channel)) {
        this.hooks.onAutoBan?.(
          channel,
          verdict.fault.reason,
          failure.kind === 'http' ? failure.status : undefined,
        );
      }
      return;
    }
    if (this.bans.has(channel.id)) return;
    if (verdict.breakerFailure) this.breakers.recordFailure(channel);
    else this.breakers.recordSuccess(channel);
  }

  /** The channels this relay's circuit breakers hold out now (admin's channel list asks). */
  heldChannels(): HeldChannel[] {
    return this.breakers.held();
  }

  queueDepth(channelId: number): number {
    return this.queues.depth(channelId);
  }

  /** Stops listening to the table and rejects whoever still waits in a queue. */
  dispose(): void {
    this.unsubscribe?.();
    this.queues.dispose();
    this.breakers.dispose();
  }

  private currentIndex(): CandidateIndex {
    const version = this.channels.version;
    if (this.index && (this.unsubscribe || (version !== undefined && version === this.indexedVersion))) {
      return this.index;
    }
    return this.rebuild(version);
  }

  private rebuild(version: number | undefined): CandidateIndex {
    const channels: CatalogChannel[] = [];
    for (const [, channel] of this.channels.entries()) {
      channels.push(channel);
      this.bans.observe(channel);
    }
    const index = CandidateIndex.build(channels);
    this.bans.retainOnly(index.channelIds);
    this.breakers.retainOnly(index.channelIds);
    this.queues.retainOnly(index.channelIds);
    if (this.scratch.length < index.largestBand) this.scratch = new Uint8Array(index.largestBand);
    this.index = index;
    this.indexedVersion = version;
    return index;
  }
}
