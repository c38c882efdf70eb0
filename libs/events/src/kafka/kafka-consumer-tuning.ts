import type { ConsumerConfig, RetryOptions } from 'kafkajs';
import type { BatchingOptions } from '../port/event-bus.port';

/** Consumer timings; kafkajs defaults apply to what is left out. Tests shorten them. */
export interface KafkaConsumerTuning {
  sessionTimeout?: number;
  heartbeatInterval?: number;
  rebalanceTimeout?: number;
  /**
   * Longest a fetch waits on the broker while no records arrive (a batching subscription waits its
   * own `maxWaitMs` while they do). A stop does not wait it out (kafkajs-fetch-control.ts).
   * Default `DEFAULT_MAX_WAIT_TIME_MS`, or a third of `sessionTimeout` when that is shorter.
   */
  maxWaitTimeInMs?: number;
  /** Partitions of one subscription handled in parallel (each partition stays sequential). Default 4. */
  partitionsConsumedConcurrently?: number;
  /**
   * Most bytes a batching subscription's fetch takes from one partition: the largest batch its
   * handler gets when records wait. Default `DEFAULT_BATCH_MAX_BYTES_PER_PARTITION`.
   */
  batchMaxBytesPerPartition?: number;
  /** Most bytes of a batching subscription's fetch over all its partitions. Default `DEFAULT_BATCH_MAX_BYTES`. */
  batchMaxBytes?: number;
  /**
   * Least time between two offset commits of a subscription (offset-commits.ts): under load, the
   * batches handled meanwhile share one commit. Default `DEFAULT_COMMIT_INTERVAL_MS`; 0 commits each
   * batch at once.
   */
  commitIntervalMs?: number;
  retry?: RetryOptions;
}

export const DEFAULT_HEARTBEAT_INTERVAL_MS = 3000;

/**
 * kafkajs's own default. An idle consumer makes one fetch per wait; c56c09e had cut it to 1 s so that
 * a stop would not wait out a long poll, which a stop no longer does (kafkajs-fetch-control.ts).
 */
export const DEFAULT_MAX_WAIT_TIME_MS = 5000;
/**
 * A batching subscription settles a batch per transaction; kafkajs's own 1 MiB per partition held
 * about 1,300 usage events, so a backlog was settled in small batches, each with its own
 * transaction and a balance publication per user in it. 4 MiB (billing alone, 50,000 events of
 * 1,000 users waiting): billing's CPU per event -20 %, PostgreSQL's -10 %, balance publications per
 * event 0.25 → 0.11. 16 MiB cut publications further (0.08) but not CPU, and makes a batch's
 * transaction four times as long.
 */
export const DEFAULT_BATCH_MAX_BYTES_PER_PARTITION = 4 * 1024 * 1024;
/** kafkajs's default is 10 MiB: less than three partitions' batches. */
export const DEFAULT_BATCH_MAX_BYTES = 16 * 1024 * 1024;
/**
 * A usage consumer committed each partition's batch: as many OffsetCommit requests as fetches, each
 * costing the broker about as much as a produce request. Once a second (the Java client commits every
 * 5 s) leaves the committed position — consumer lag as the metrics and benches read it — at most a
 * second behind what was handled, and a crash redelivering at most a second of records.
 */
export const DEFAULT_COMMIT_INTERVAL_MS = 1000;
/** kafkajs's default session timeout. */
const DEFAULT_SESSION_TIMEOUT_MS = 30_000;

/**
 * How long an idle fetch waits. kafkajs heartbeats only between fetches, so the default stays within
 * a third of the session timeout: a member waiting on an idle fetch is not taken for dead.
 */
export function idleFetchWaitMs(tuning: KafkaConsumerTuning): number {
  return (
    tuning.maxWaitTimeInMs ??
    Math.min(DEFAULT_MAX_WAIT_TIME_MS, Math.floor((tuning.sessionTimeout ?? DEFAULT_SESSION_TIMEOUT_MS) / 3))
  );
}

export function consumerConfig(
  groupId: string,
  tuning: KafkaConsumerTuning,
  batching?: BatchingOptions,
): ConsumerConfig {
  return {
    groupId,
    sessionTimeout: tuning.sessionTimeout,
    heartbeatInterval: tuning.heartbeatInterval,
    rebalanceTimeout: tuning.rebalanceTimeout,
    ...(batching === undefined
      ? { maxWaitTimeInMs: idleFetchWaitMs(tuning) }
      : {
          minBytes: batching.minBytes,
          maxWaitTimeInMs: batching.maxWaitMs,
          maxBytesPerPartition: tuning.batchMaxBytesPerPartition ?? DEFAULT_BATCH_MAX_BYTES_PER_PARTITION,
          maxBytes: tuning.batchMaxBytes ?? DEFAULT_BATCH_MAX_BYTES,
        }),
    retry: tuning.retry,
    allowAutoTopicCreation: false,
  };
}
