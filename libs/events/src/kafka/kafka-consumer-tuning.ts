import type { ConsumerConfig, RetryOptions } from 'kafkajs';
import type { BatchingOptions } from '../port/event-bus.port';

/** Consumer timings; kafkajs defaults apply to what is left out. Tests shorten them. */
export interface KafkaConsumerTuning {
  sessionTimeout?: number;
  heartbeatInterval?: number;
  rebalanceTimeout?: number;
  /** Longest a fetch waits on the broker for new data; also bounds how long stop() can take. */
  maxWaitTimeInMs?: number;
  /** Partitions of one subscription handled in parallel (each partition stays sequential). Default 4. */
  partitionsConsumedConcurrently?: number;
  retry?: RetryOptions;
}

export const DEFAULT_HEARTBEAT_INTERVAL_MS = 3000;

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
      ? { maxWaitTimeInMs: tuning.maxWaitTimeInMs }
      : { minBytes: batching.minBytes, maxWaitTimeInMs: batching.maxWaitMs }),
    retry: tuning.retry,
    allowAutoTopicCreation: false,
  };
}
