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

/** The items of one future flush, and the one promise every push into it was handed. */
interface Batch<T> {
  items: T[];
  settled: Promise<void>;
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
 *
 * A push joins the last batch waiting when it fits (a batch takes pushes in order until the next would
 * pass `maxBatchSize`; its first push, of any size) and is handed that batch's promise: one promise a
 * flush, not one a push (each push is one usage event of a relay call).
 */
export class CoalescingQueue<T> {
  private readonly flushItems: (items: T[]) => Promise<void>;
  private readonly lingerMs: number;
  private readonly maxBatchSize: number;
  /** Batches waiting, oldest first; only the last one still takes pushes. */
  private batches: Batch<T>[] = [];
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
    const last = this.batches[this.batches.length - 1] as Batch<T> | undefined;
    let batch: Batch<T>;
    if (last && last.items.length + items.length <= this.maxBatchSize) {
      batch = last;
      for (const item of items) batch.items.push(item);
    } else {
      batch = newBatch(items.slice());
      this.batches.push(batch);
    }
    this.schedule();
    return batch.settled;
  }

  /** Resolves when everything pushed so far has been flushed (successfully or not). */
  drain(): Promise<void> {
    if (!this.flushing && this.batches.length === 0) return Promise.resolve();
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
    const batch = this.batches.shift();
    if (!batch) {
      this.notifyIdle();
      return;
    }
    this.flushing = true;
    this.lastFlushAt = performance.now();
    try {
      await this.flushItems(batch.items);
      batch.resolve();
    } catch (error) {
      batch.reject(error);
    } finally {
      this.flushing = false;
    }
    // Whatever gathered during the flush goes out once `lingerMs` has passed since this one began.
    if (this.batches.length > 0) this.schedule();
    else this.notifyIdle();
  }

  private notifyIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

function newBatch<T>(items: T[]): Batch<T> {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const settled = new Promise<void>((onResolve, onReject) => {
    resolve = onResolve;
    reject = onReject;
  });
  return { items, settled, resolve, reject };
}
