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
  retry?: RetryOptions;
}

export const DEFAULT_HEARTBEAT_INTERVAL_MS = 3000;

/**
 * kafkajs's own default. An idle consumer makes one fetch per wait; c56c09e had cut it to 1 s so that
 * a stop would not wait out a long poll, which a stop no longer does (kafkajs-fetch-control.ts).
 */
export const DEFAULT_MAX_WAIT_TIME_MS = 5000;
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
      : { minBytes: batching.minBytes, maxWaitTimeInMs: batching.maxWaitMs }),
    retry: tuning.retry,
    allowAutoTopicCreation: false,
  };
}
