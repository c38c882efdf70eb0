import type { TopicPartitionOffset } from 'kafkajs';

export interface OffsetCommitsOptions {
  /**
   * Least time between two commits. An offset when none was committed that long ago is committed at
   * once; under load, offsets wait for the rest of it and share one commit (0: every one at once).
   */
  intervalMs: number;
  commit: (offsets: TopicPartitionOffset[]) => Promise<void>;
  /** A deferred commit failed (one a handler awaited fails that handler's batch instead). */
  onDeferredError: (error: unknown) => void;
}

const keyOf = (topic: string, partition: number) => `${partition}:${topic}`;

/**
 * A consumer's OffsetCommit requests, at most one per `intervalMs` under load: each costs the broker
 * about as much as a produce request (bench/micro/kafka-broker-cost.mjs), and committing each
 * partition's batch on its own made a usage consumer's commits as many as its fetches. Only offsets
 * whose records were handled are ever added, so a crash or a lost partition redelivers at most the
 * last `intervalMs` of records, which every consumer of this bus settles idempotently. Like the
 * publisher, a lone commit is not held back by a timer: at a low rate each batch commits at once.
 */
export class OffsetCommits {
  private readonly pending = new Map<string, TopicPartitionOffset>();
  private timer: NodeJS.Timeout | undefined;
  private lastCommitAt = Number.NEGATIVE_INFINITY;
  private inOrder: Promise<void> = Promise.resolve();
  private closing = false;

  constructor(private readonly options: OffsetCommitsOptions) {}

  /**
   * Marks `offset` (the next one to read) committable for its partition. Resolves once it is
   * committed when it goes at once, else at once (the commit follows within `intervalMs`).
   */
  add(offset: TopicPartitionOffset): Promise<void> {
    this.pending.set(keyOf(offset.topic, offset.partition), offset);
    const dueIn = this.lastCommitAt + this.options.intervalMs - Date.now();
    if (this.closing || dueIn <= 0) return this.flush();
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.flush().catch((error: unknown) => this.options.onDeferredError(error));
    }, dueIn);
    this.timer.unref();
    return Promise.resolve();
  }

  /** Drops what waits for partitions the member no longer holds: their new owner commits them. */
  retain(assigned: (topic: string, partition: number) => boolean): void {
    for (const [key, { topic, partition }] of this.pending) {
      if (!assigned(topic, partition)) this.pending.delete(key);
    }
  }

  /** Commits what waits, and from now on every offset at once (the member is leaving its group). */
  close(): Promise<void> {
    this.closing = true;
    return this.flush();
  }

  /** Commits what waits, after any commit in flight (commits stay in order). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.size === 0) return this.inOrder;
    const offsets = [...this.pending.values()];
    this.pending.clear();
    this.lastCommitAt = Date.now();
    const committing = this.inOrder.then(() => this.options.commit(offsets));
    this.inOrder = committing.catch(() => undefined);
    return committing;
  }
}
