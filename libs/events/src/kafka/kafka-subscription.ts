import { retryWhileRetriable } from './retry-while-retriable';
import type {
  Admin,
  Consumer,
  EachBatchPayload,
  Kafka,
  IMemberAssignment,
  TopicPartitionOffsetAndMetadata,
} from 'kafkajs';
import type { OutgoingEvent, SubscribeOptions, Subscription } from '../port/event-bus.port';
import { sleep } from '../shared/backoff';
import { deadLetterEvent } from '../shared/dead-letter';
import {
  decodeRecord,
  deliverRecords,
  type DeliveryContext,
  type DeliveryPolicy,
} from '../shared/deliver-batch';
import { errorMessage, type EventBusLogger } from '../shared/logger';
import { deliveryPolicy } from '../shared/validate-events';
import { decodeKafkaMessage } from './kafka-codec';
import {
  consumerConfig,
  DEFAULT_COMMIT_INTERVAL_MS,
  DEFAULT_HEARTBEAT_INTERVAL_MS,
  idleFetchWaitMs,
  type KafkaConsumerTuning,
} from './kafka-consumer-tuning';
import { paceIdleFetches } from './kafkajs-fetch-control';
import { OffsetCommits } from './offset-commits';

/** How long a new group's start may wait for the leaders of topics created just before. */
const PIN_RETRY_WINDOW_MS = 30_000;

export interface KafkaSubscriptionDependencies {
  kafka: Kafka;
  admin: () => Promise<Admin>;
  tuning: KafkaConsumerTuning;
  publishDeadLetter: (event: OutgoingEvent) => Promise<void>;
  logger: EventBusLogger;
}

/**
 * One consumer-group member. Batches come from `eachBatch` with auto-commit off; an offset is
 * resolved and committed only after the handler succeeded (or the record was dead-lettered), under
 * load at most once per `commitIntervalMs` for all partitions (offset-commits.ts).
 */
export class KafkaSubscription implements Subscription {
  private readonly consumer: Consumer;
  private readonly abort = new AbortController();
  private readonly policy: DeliveryPolicy;
  private stopping: Promise<void> | undefined;
  private readonly unpace: () => void;
  private readonly commits: OffsetCommits;

  private constructor(
    private readonly options: SubscribeOptions<unknown>,
    private readonly deps: KafkaSubscriptionDependencies,
  ) {
    this.policy = deliveryPolicy(options);
    this.consumer = deps.kafka.consumer(consumerConfig(options.groupId, deps.tuning, options.batching));
    // Batching waits briefly for more records; with none coming, a fetch may wait as long as any other.
    this.unpace = options.batching
      ? paceIdleFetches(options.groupId, { idleWaitMs: idleFetchWaitMs(deps.tuning) })
      : () => undefined;
    this.commits = new OffsetCommits({
      intervalMs: options.commitIntervalMs ?? deps.tuning.commitIntervalMs ?? DEFAULT_COMMIT_INTERVAL_MS,
      commit: (offsets) => this.consumer.commitOffsets(offsets),
      onDeferredError: (error) =>
        // A rebalance got there first: the partitions' owners read those records again.
        this.deps.logger.warn('could not commit offsets; their records will be read again', {
          groupId: this.options.groupId,
          error: errorMessage(error),
        }),
    });
  }

  /** Resolves once the member has joined its group and received its partitions. */
  static async start(
    options: SubscribeOptions<unknown>,
    deps: KafkaSubscriptionDependencies,
  ): Promise<KafkaSubscription> {
    const subscription = new KafkaSubscription(options, deps);
    try {
      await subscription.run();
    } catch (error) {
      await subscription.consumer.disconnect().catch(() => undefined);
      subscription.unpace();
      throw error;
    }
    return subscription;
  }

  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.abort.abort();
      try {
        // What waits is committed before the member leaves; a batch still being handled commits at once.
        await this.commits.close().catch((error: unknown) =>
          this.deps.logger.warn('could not commit offsets on stop; their records will be read again', {
            groupId: this.options.groupId,
            error: errorMessage(error),
          }),
        );
        await this.consumer.disconnect();
      } finally {
        this.unpace();
      }
    })();
    return this.stopping;
  }

  private async run(): Promise<void> {
    const { consumer } = this;
    const joined = new Promise<IMemberAssignment>((resolve, reject) => {
      consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
        const assignment = payload.memberAssignment;
        this.commits.retain((topic, partition) => assignment[topic]?.includes(partition) ?? false);
        resolve(assignment);
      });
      consumer.on(consumer.events.CRASH, ({ payload }) => {
        this.deps.logger.error('kafka consumer crashed', {
          groupId: this.options.groupId,
          restart: payload.restart,
          error: errorMessage(payload.error),
        });
        if (!payload.restart) reject(payload.error);
      });
    });
    // A crash after connect() failed or after the join would otherwise be an unhandled rejection.
    joined.catch(() => undefined);
    await consumer.connect();
    await consumer.subscribe({
      topics: this.options.topics,
      fromBeginning: this.options.fromBeginning ?? true,
    });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: this.deps.tuning.partitionsConsumedConcurrently ?? 4,
      eachBatch: (payload) => this.handleBatch(payload),
    });
    const assignment = await joined;
    if (this.options.fromBeginning === false) await this.pinStartingOffsets(assignment);
  }

  /**
   * kafkajs looks up "latest" for a partition without a committed offset only at its first
   * fetch, which may come after subscribe() resolved, losing events published in between.
   * Committing the current end offsets now makes the starting point no later than this call.
   */
  private async pinStartingOffsets(assignment: IMemberAssignment): Promise<void> {
    const topics = Object.keys(assignment).filter((topic) => assignment[topic].length > 0);
    if (topics.length === 0) return;
    const admin = await this.deps.admin();
    const starts: TopicPartitionOffsetAndMetadata[] = [];
    const committed = await retryWhileRetriable(
      () => admin.fetchOffsets({ groupId: this.options.groupId, topics }),
      {
        windowMs: PIN_RETRY_WINDOW_MS,
      },
    );
    for (const { topic, partitions } of committed) {
      const uncommitted = partitions.filter(
        ({ partition, offset }) => assignment[topic].includes(partition) && Number(offset) < 0,
      );
      if (uncommitted.length === 0) continue;
      const ends = await retryWhileRetriable(() => admin.fetchTopicOffsets(topic), {
        windowMs: PIN_RETRY_WINDOW_MS,
      });
      for (const { partition } of uncommitted) {
        const end = ends.find((candidate) => candidate.partition === partition);
        if (end) starts.push({ topic, partition, offset: end.high });
      }
    }
    if (starts.length === 0) return;
    await this.consumer.commitOffsets(starts).catch((error: unknown) => {
      // A rebalance got there first; the partitions' new owners pin their own start.
      this.deps.logger.warn('could not pin the starting offsets of a new consumer group', {
        groupId: this.options.groupId,
        error: errorMessage(error),
      });
    });
  }

  private async handleBatch(payload: EachBatchPayload): Promise<void> {
    const { batch } = payload;
    const records = batch.messages.map((message) => {
      const decoded = decodeKafkaMessage(batch.topic, batch.partition, message);
      // A value that is not JSON can never be handled: straight to the dead-letter topic.
      if (!decoded.ok) return { ok: false as const, record: decoded.raw, error: decoded.error };
      return decodeRecord(decoded.record, this.options.decode);
    });
    await deliverRecords(records, this.policy, this.deliveryContext(payload));
  }

  private deliveryContext(payload: EachBatchPayload): DeliveryContext<unknown> {
    const { batch, resolveOffset, heartbeat, isRunning, isStale } = payload;
    const { signal } = this.abort;
    const isActive = () => isRunning() && !isStale() && !signal.aborted;
    const heartbeatEvery = this.deps.tuning.heartbeatInterval ?? DEFAULT_HEARTBEAT_INTERVAL_MS;
    return {
      handler: this.options.handler,
      isActive,
      commit: async (record) => {
        resolveOffset(record.offset);
        await this.commits.add({
          topic: batch.topic,
          partition: batch.partition,
          offset: (BigInt(record.offset) + 1n).toString(),
        });
      },
      deadLetter: async (record, error, attempts) => {
        await this.deps.publishDeadLetter(deadLetterEvent(record, this.options.groupId, error, attempts));
        this.deps.logger.warn('event dead-lettered', {
          groupId: this.options.groupId,
          topic: record.topic,
          partition: record.partition,
          offset: record.offset,
          error: errorMessage(error),
        });
      },
      // Long backoffs keep heartbeating so the group does not evict this member meanwhile.
      wait: async (ms) => {
        const until = Date.now() + ms;
        for (let left = ms; left > 0; left = until - Date.now()) {
          if (!(await sleep(Math.min(left, heartbeatEvery), signal)) || !isActive()) return false;
          await heartbeat();
        }
        return true;
      },
      onRetry: (error, attempt, delayMs) =>
        this.deps.logger.warn('event handler failed; retrying', {
          groupId: this.options.groupId,
          topic: batch.topic,
          partition: batch.partition,
          attempt,
          delayMs,
          error: errorMessage(error),
        }),
    };
  }
}
