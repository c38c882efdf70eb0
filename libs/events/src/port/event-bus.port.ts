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
   * its records are tried one by one, each one that still fails goes to `<topic>.dlq`, and
   * consumption moves on. Calls for one partition never overlap; calls for different
   * partitions may. Delivery is at least once: handlers must be idempotent.
   */
  handler: (batch: EventRecord<T>[]) => Promise<void>;
  /**
   * Turns each record's value, a tombstone's null included, into what the handler receives. A
   * record it throws for can never be handled: it goes to `<topic>.dlq` at once with the error
   * (never retried, whatever `isTransient` says) and the records around it are handled as usual,
   * as for a value that is not JSON. The error's message is logged, so it must not quote the value.
   */
  decode?: (value: unknown) => T;
  /** Attempts per batch before its failing records are dead-lettered (default 5). */
  maxAttempts?: number;
  /**
   * Says whether a handler's failure is transient (its database away, …): such a batch is retried
   * with backoff for as long as the consumer runs, holding its partition, instead of being
   * dead-lettered after `maxAttempts`. For consumers that must never drop a record (money).
   */
  isTransient?: (error: unknown) => boolean;
  /** Delay before retry n is `initialDelayMs * 2^(n-1)`, capped at `maxDelayMs` (defaults 200 ms, 30 s). */
  backoff?: BackoffOptions;
  /**
   * Lets the broker gather records before it answers a fetch, for consumers to whom a fraction of a
   * second costs nothing: fewer, larger batches (one transaction each), at low rates as under load.
   * Both buses honour it: Kafka as the fetch's minBytes and maxWaitTimeInMs, the in-process bus by
   * holding a partition's records until that many bytes (or its largest batch) are waiting or the
   * first of them has waited that long. Without it the in-process bus delivers at once.
   */
  batching?: BatchingOptions;
  /**
   * Least time between two offset commits under load, for a consumer whose lag operators read closely
   * (billing's usage settlement). Kafka only (the in-process bus records each batch's offsets itself);
   * default the consumer's tuning (`KafkaConsumerTuning.commitIntervalMs`, one second).
   */
  commitIntervalMs?: number;
}

export interface BatchingOptions {
  /** The broker answers once this many bytes are waiting... */
  minBytes: number;
  /** ...or once this long has passed, whichever comes first. */
  maxWaitMs: number;
}

export interface BackoffOptions {
  initialDelayMs?: number;
  maxDelayMs?: number;
}

export interface Subscription {
  /**
   * Leaves the group: aborts a pending retry wait, lets a running handler call finish (and
   * commits it if it succeeded), and starts no new one. Uncommitted records go to the next member.
   */
  stop(): Promise<void>;
}

/** A compacted topic read from the beginning into memory: the read models relay lives on. */
export interface CompactedTable<T> {
  get(key: string): T | undefined;
  entries(): IterableIterator<[string, T]>;
  readonly size: number;
  /**
   * Resolves once every partition has been read up to the end offset seen at start-up; rejects
   * if the topic cannot be read (unknown topic, broker unreachable) or the table is stopped first.
   */
  caughtUp(): Promise<void>;
  isCaughtUp(): boolean;
  /** Called after every applied change (value undefined = deleted by tombstone). */
  onChange(listener: (key: string, value: T | undefined) => void): () => void;
  stop(): Promise<void>;
}

export interface EventBus {
  /** Creates the topics that do not exist yet; existing topics are left as they are. */
  ensureTopics(topics: TopicSpec[]): Promise<void>;
  /** Resolves once every event is durably stored (acked by Kafka, written to the data dir). */
  publish(events: OutgoingEvent[]): Promise<void>;
  /**
   * Joins the group and starts consuming; resolves once the member has its partitions, so
   * events published afterwards reach the group even with `fromBeginning: false`.
   */
  subscribe<T = unknown>(options: SubscribeOptions<T>): Promise<Subscription>;
  /**
   * Reads a compacted topic from the beginning, outside any consumer group. A value that
   * `decode` rejects is logged and its key dropped: a read model fails closed rather than
   * keeping a stale entity.
   */
  table<T>(topic: string, decode?: (value: unknown) => T): Promise<CompactedTable<T>>;
  close(): Promise<void>;
}

export const EVENT_BUS = Symbol('EVENT_BUS');

/** Failed records go to this topic, with the original key, value and headers. */
export function deadLetterTopic(topic: string): string {
  return `${topic}.dlq`;
}

/** Headers added to a dead-lettered record to say where it came from and why it failed. */
export const DEAD_LETTER_HEADERS = {
  topic: 'x-dlq-topic',
  partition: 'x-dlq-partition',
  offset: 'x-dlq-offset',
  groupId: 'x-dlq-group-id',
  attempts: 'x-dlq-attempts',
  error: 'x-dlq-error',
} as const;
