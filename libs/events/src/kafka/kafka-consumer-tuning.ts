import type { ConsumerConfig, RetryOptions } from 'kafkajs';
import type { BatchingOptions } from '../port/event-bus.port';

/** Consumer timings; kafkajs defaults apply to what is left out. Tests shorten them. */
export interface KafkaConsumerTuning {
  sessionTimeout?: number;
  heartbeatInterval?: number;
  rebalanceTimeout?: number;
  /**
   * Longest a fetch waits on the broker for new data; also how long stop() can take, since kafkajs
   * lets the fetch in flight finish. Default `DEFAULT_MAX_WAIT_TIME_MS`.
   */
  maxWaitTimeInMs?: number;
  /** Partitions of one subscription handled in parallel (each partition stays sequential). Default 4. */
  partitionsConsumedConcurrently?: number;
  retry?: RetryOptions;
}

export const DEFAULT_HEARTBEAT_INTERVAL_MS = 3000;

/**
 * kafkajs waits 5 s by default, so every service with an idle consumer took up to 5 s to stop (a
 * rolling restart, and each test platform's shutdown). A second costs an idle consumer one empty
 * fetch per second.
 */
export const DEFAULT_MAX_WAIT_TIME_MS = 1000;

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
      ? { maxWaitTimeInMs: tuning.maxWaitTimeInMs ?? DEFAULT_MAX_WAIT_TIME_MS }
      : { minBytes: batching.minBytes, maxWaitTimeInMs: batching.maxWaitMs }),
    retry: tuning.retry,
    allowAutoTopicCreation: false,
  };
}
