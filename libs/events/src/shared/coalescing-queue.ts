export interface CoalescingQueueOptions<T> {
  /** Writes one batch; every push whose items are in it settles with its outcome. */
  flush: (items: T[]) => Promise<void>;
  /**
   * Least time between the starts of two flushes (default 0). An item pushed to an idle queue whose
   * last flush began at least this long ago goes at once; otherwise it waits for the rest of that time.
   */
  lingerMs?: number;
  /** Upper bound on items per flush; a single push is never split across flushes. */
  maxBatchSize?: number;
}

interface Pending<T> {
  items: T[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Collects concurrent pushes into one flush, with at most one flush in flight: while a flush
 * runs, new pushes gather for the next one. Items are flushed in push order.
 *
 * A push to an idle queue is flushed in a microtask (pushes made in the same synchronous run share
 * it), not after a timer: a lone item (one call's usage event, one commit) costs no wake-up of its
 * own. Batches form under load by themselves, as in Nagle's algorithm: what arrives while a flush is
 * in flight, or within `lingerMs` of the last flush's start, waits and goes out together, so flushes
 * come at most every `lingerMs` however many items are pushed.
 */
export class CoalescingQueue<T> {
  private readonly flushItems: (items: T[]) => Promise<void>;
  private readonly lingerMs: number;
  private readonly maxBatchSize: number;
  private queue: Pending<T>[] = [];
  private flushing = false;
  private timer: NodeJS.Timeout | undefined;
  private flushQueued = false;
  /** When the last flush began (performance.now()). */
  private lastFlushAt = Number.NEGATIVE_INFINITY;
  private idleWaiters: Array<() => void> = [];

  constructor(options: CoalescingQueueOptions<T>) {
    this.flushItems = options.flush;
    this.lingerMs = options.lingerMs ?? 0;
    this.maxBatchSize = options.maxBatchSize ?? Number.POSITIVE_INFINITY;
  }

  push(items: T[]): Promise<void> {
    if (items.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ items, resolve, reject });
      this.schedule();
    });
  }

  /** Resolves when everything pushed so far has been flushed (successfully or not). */
  drain(): Promise<void> {
    if (!this.flushing && this.queue.length === 0) return Promise.resolve();
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
      void this.flushNext();
    }
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private schedule(): void {
    if (this.flushing || this.timer || this.flushQueued) return;
    // drain() is waiting: nothing lingers.
    const waitMs = this.idleWaiters.length > 0 ? 0 : this.lastFlushAt + this.lingerMs - performance.now();
    if (waitMs <= 0) {
      this.flushQueued = true;
      queueMicrotask(() => {
        this.flushQueued = false;
        void this.flushNext();
      });
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flushNext();
    }, waitMs);
  }

  private async flushNext(): Promise<void> {
    if (this.flushing) return;
    const batch = this.takeBatch();
    if (batch.length === 0) {
      this.notifyIdle();
      return;
    }
    this.flushing = true;
    this.lastFlushAt = performance.now();
    try {
      await this.flushItems(batch.flatMap((pending) => pending.items));
      for (const pending of batch) pending.resolve();
    } catch (error) {
      for (const pending of batch) pending.reject(error);
    } finally {
      this.flushing = false;
    }
    // Whatever gathered during the flush goes out once `lingerMs` has passed since this one began.
    if (this.queue.length > 0) this.schedule();
    else this.notifyIdle();
  }

  private takeBatch(): Pending<T>[] {
    let count = 0;
    let taken = 0;
    while (taken < this.queue.length) {
      const size = this.queue[taken].items.length;
      if (taken > 0 && count + size > this.maxBatchSize) break;
      count += size;
      taken++;
    }
    return this.queue.splice(0, taken);
  }

  private notifyIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
