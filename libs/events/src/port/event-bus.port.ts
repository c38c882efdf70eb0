/**
 * The event bus every service talks to. Two adapters implement it (Kafka and in-process) and
 * pass one contract suite, so a service never knows which one it runs on.
 */

/** A message as handlers receive it. `value === null` is a tombstone (compacted topics). */
export interface EventRecord<T = unknown> {
  topic: string;
  partition: number;
  offset: string;
  key: string;
  value: T | null;
  headers: Record<string, string>;
  timestamp: number;
}

export interface OutgoingEvent {
  topic: string;
  /** Partitioning and compaction key (entity id, user id). */
  key: string;
  /** JSON-serialisable payload; `null` publishes a tombstone. */
  value: unknown | null;
  headers?: Record<string, string>;
}

export interface TopicSpec {
  name: string;
  /** Compacted topics keep the last value per key and act as replicated tables. */
  compacted?: boolean;
  partitions?: number;
}

export interface SubscribeOptions<T = unknown> {
  /** Consumer group: each group sees every event; members of one group share the partitions. */
  groupId: string;
  topics: string[];
  /** Start a group that has no committed offset at the earliest offset (default true). */
  fromBeginning?: boolean;
  /**
   * Called with one or more records of one partition, in order. Offsets are committed only
   * after it resolves. If it throws, the batch is retried with backoff; after `maxAttempts`
   * each failing record goes to `<topic>.dlq` and consumption moves on.
   */
  handler: (batch: EventRecord<T>[]) => Promise<void>;
  maxAttempts?: number;
}

export interface Subscription {
  stop(): Promise<void>;
}

/** A compacted topic read from the beginning into memory: the read models relay lives on. */
export interface CompactedTable<T> {
  get(key: string): T | undefined;
  entries(): IterableIterator<[string, T]>;
  readonly size: number;
  /** Resolves once every partition has been read up to the end offset seen at start-up. */
  caughtUp(): Promise<void>;
  isCaughtUp(): boolean;
  /** Called after every applied change (value undefined = deleted by tombstone). */
  onChange(listener: (key: string, value: T | undefined) => void): () => void;
  stop(): Promise<void>;
}

export interface EventBus {
  ensureTopics(topics: TopicSpec[]): Promise<void>;
  publish(events: OutgoingEvent[]): Promise<void>;
  subscribe<T = unknown>(options: SubscribeOptions<T>): Promise<Subscription>;
  table<T>(topic: string, decode?: (value: unknown) => T): Promise<CompactedTable<T>>;
  close(): Promise<void>;
}

export const EVENT_BUS = Symbol('EVENT_BUS');
