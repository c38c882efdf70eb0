import type { CatalogChannel } from '@tollgate/contracts';
import { CallAbortedError, type CallAbort } from '../upstream/call-abort';
import { QueueFullError, QueueTimeoutError } from './queue-errors';
import type { RoutingOptions } from './routing-options';
import { WaiterList, type Linked } from './waiter-list';

export type Release = () => void;

/** How a wait for a slot ended: with the slot, at the queue timeout, or with the client gone. */
export type QueueWaitOutcome = 'granted' | 'timeout' | 'aborted';

interface Waiter extends Linked<Waiter> {
  readonly gate: Gate;
  readonly resolve: (release: Release) => void;
  readonly reject: (reason: unknown) => void;
  /** performance.now() when it joined the queue. */
  readonly queuedAt: number;
  timer: NodeJS.Timeout | undefined;
  /** Removes its listener on the call's abort. */
  stopListening: (() => void) | undefined;
}

/** One channel's concurrency: slots in use and the two classes of requests waiting for one. */
interface Gate {
  readonly channelId: number;
  limit: number;
  active: number;
  readonly priority: WaiterList<Waiter>;
  readonly normal: WaiterList<Waiter>;
}

const noRelease: Release = () => undefined;
const UNLIMITED = 0;

type QueueSettings = Pick<RoutingOptions, 'queueTimeoutMs' | 'queueCapacity' | 'priorityGroups'>;

/**
 * Slots per channel at its max_concurrency. A request that finds no free slot waits in a bounded
 * FIFO; requests of the priority groups wait in their own FIFO that is always served first. A slot
 * freed by a release goes straight to the next waiter, so a newcomer never overtakes the queue.
 * Every waiter holds one timer (its queue timeout), cleared the moment it leaves the queue.
 */
export class ChannelQueues {
  private readonly gates = new Map<number, Gate>();
  private readonly priorityGroups: ReadonlySet<string>;
  private readonly retryAfterSeconds: number;

  constructor(
    private readonly settings: QueueSettings,
    private readonly onQueueDepth?: (channelId: number, depth: number) => void,
    private readonly onQueueWait?: (channelId: number, seconds: number, outcome: QueueWaitOutcome) => void,
  ) {
    this.priorityGroups = new Set(settings.priorityGroups);
    this.retryAfterSeconds = Math.max(1, Math.ceil(settings.queueTimeoutMs / 1000));
  }

  /** Rejects with CallAbortedError when the call is aborted while it waits. */
  acquire(channel: CatalogChannel, group: string, abort?: CallAbort): Promise<Release> {
    if (abort?.aborted) return Promise.reject(new CallAbortedError());
    const gate = this.gateFor(channel);
    if (!gate) return Promise.resolve(noRelease);
    if (waitingIn(gate) === 0 && gate.active < gate.limit) {
      gate.active++;
      return Promise.resolve(this.releaseOf(gate));
    }
    if (waitingIn(gate) >= this.settings.queueCapacity) {
      return Promise.reject(new QueueFullError(gate.channelId, this.retryAfterSeconds));
    }
    return new Promise<Release>((resolve, reject) => {
      const waiter: Waiter = {
        gate,
        resolve,
        reject,
        queuedAt: performance.now(),
        timer: undefined,
        stopListening: undefined,
        prev: undefined,
        next: undefined,
        list: undefined,
      };
      (this.priorityGroups.has(group) ? gate.priority : gate.normal).push(waiter);
      waiter.timer = setTimeout(
        () => this.giveUp(waiter, new QueueTimeoutError(gate.channelId, this.retryAfterSeconds)),
        this.settings.queueTimeoutMs,
      );
      waiter.timer.unref();
      if (abort) waiter.stopListening = abort.onAbort(() => this.giveUp(waiter, new CallAbortedError()));
      this.reportDepth(gate);
    });
  }

  /** Requests waiting for a slot on the channel. */
  depth(channelId: number): number {
    const gate = this.gates.get(channelId);
    return gate ? waitingIn(gate) : 0;
  }

  /** Forgets idle gates of channels that left the table. */
  retainOnly(liveIds: ReadonlySet<number>): void {
    for (const [id, gate] of this.gates) {
      if (!liveIds.has(id) && gate.active === 0 && waitingIn(gate) === 0) this.gates.delete(id);
    }
  }

  /** Rejects every waiter and clears its timer. */
  dispose(): void {
    const reason = new Error('channel router disposed');
    for (const gate of this.gates.values()) {
      for (
        let waiter = gate.priority.shift() ?? gate.normal.shift();
        waiter;
        waiter = gate.priority.shift() ?? gate.normal.shift()
      ) {
        this.detach(waiter);
        waiter.reject(reason);
      }
    }
    this.gates.clear();
  }

  /** Undefined for a channel without a concurrency limit (and none applied to it before). */
  private gateFor(channel: CatalogChannel): Gate | undefined {
    const gate = this.gates.get(channel.id);
    const limit = channel.max_concurrency === UNLIMITED ? Infinity : channel.max_concurrency;
    if (gate) {
      if (gate.limit !== limit) {
        gate.limit = limit;
        // A raised limit frees slots that no release would hand over.
        this.grantFreeSlots(gate);
      }
      // Still counted: requests let in under the old limit release through this gate.
      return limit === Infinity && gate.active === 0 && waitingIn(gate) === 0 ? undefined : gate;
    }
    if (limit === Infinity) return undefined;
    const created: Gate = {
      channelId: channel.id,
      limit,
      active: 0,
      priority: new WaiterList(),
      normal: new WaiterList(),
    };
    this.gates.set(channel.id, created);
    return created;
  }

  private releaseOf(gate: Gate): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      gate.active--;
      this.grantFreeSlots(gate);
    };
  }

  private grantFreeSlots(gate: Gate): void {
    let granted = false;
    while (gate.active < gate.limit) {
      const waiter = gate.priority.shift() ?? gate.normal.shift();
      if (!waiter) break;
      this.detach(waiter);
      gate.active++;
      granted = true;
      this.reportWait(waiter, 'granted');
      waiter.resolve(this.releaseOf(gate));
    }
    if (granted) this.reportDepth(gate);
  }

  private giveUp(waiter: Waiter, reason: unknown): void {
    const list = waiter.list;
    if (!list) return;
    list.remove(waiter);
    this.detach(waiter);
    this.reportWait(waiter, reason instanceof QueueTimeoutError ? 'timeout' : 'aborted');
    waiter.reject(reason);
    this.reportDepth(waiter.gate);
  }

  /** Stops the waiter's timer and abort listener once it has left its queue. */
  private detach(waiter: Waiter): void {
    if (waiter.timer) clearTimeout(waiter.timer);
    waiter.timer = undefined;
    waiter.stopListening?.();
    waiter.stopListening = undefined;
  }

  private reportWait(waiter: Waiter, outcome: QueueWaitOutcome): void {
    this.onQueueWait?.(waiter.gate.channelId, (performance.now() - waiter.queuedAt) / 1000, outcome);
  }

  private reportDepth(gate: Gate): void {
    this.onQueueDepth?.(gate.channelId, waitingIn(gate));
  }
}

function waitingIn(gate: Gate): number {
  return gate.priority.size + gate.normal.size;
}
