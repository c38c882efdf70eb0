import { retryWhileRetriable } from './retry-while-retriable';
import { randomUUID } from 'node:crypto';
import type { Admin, Consumer, EachBatchPayload, Kafka } from 'kafkajs';
import { errorMessage, type EventBusLogger } from '../shared/logger';
import type { TableView } from '../shared/table-view';
import { decodeKafkaMessage } from './kafka-codec';
import { consumerConfig, type KafkaConsumerTuning } from './kafka-consumer-tuning';

export interface TableReaderDependencies {
  kafka: Kafka;
  admin: () => Promise<Admin>;
  clientId: string;
  tuning: KafkaConsumerTuning;
  logger: EventBusLogger;
}

const START_RETRY_WINDOW_MS = 30_000;

/**
 * Reads compacted topics from the beginning for a set of tables, under a group id of its own
 * that never commits: no group's committed offsets are involved, and every start replays the
 * whole topic. Tables opened together share one reader, so they pay one group join.
 */
export class KafkaTableReader {
  private readonly views = new Map<string, Set<TableView<unknown>>>();
  /** topic → partition → end offset seen at start that has not been reached yet. */
  private readonly unread = new Map<string, Map<number, number>>();
  private consumer: Consumer | undefined;
  private starting: Promise<void> | undefined;
  private stopping: Promise<void> | undefined;

  constructor(private readonly deps: TableReaderDependencies) {}

  add(view: TableView<unknown>): void {
    if (this.starting) throw new Error('a table reader takes new tables only before it starts');
    let views = this.views.get(view.topic);
    if (!views) this.views.set(view.topic, (views = new Set()));
    views.add(view);
  }

  start(): Promise<void> {
    this.starting ??= this.connectAndRun();
    return this.starting;
  }

  private async connectAndRun(): Promise<void> {
    try {
      await this.readEndOffsetsPatiently();
      if (this.stopping) return;
      const groupId = `${this.deps.clientId}.table.${randomUUID()}`;
      const consumer = this.deps.kafka.consumer(consumerConfig(groupId, this.deps.tuning));
      this.consumer = consumer;
      // Batches emptied by compaction or control records skip eachBatch but still move the position.
      consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) =>
        this.advance(payload.topic, payload.partition, Number(payload.lastOffset) + 1),
      );
      consumer.on(consumer.events.CRASH, ({ payload }) => {
        this.deps.logger.error('compacted table reader crashed', {
          topics: [...this.views.keys()],
          restart: payload.restart,
          error: errorMessage(payload.error),
        });
        if (!payload.restart) this.failAll(payload.error);
      });
      await consumer.connect();
      if (this.stopping) return;
      await consumer.subscribe({ topics: [...this.views.keys()], fromBeginning: true });
      await consumer.run({ autoCommit: false, eachBatch: (payload) => this.apply(payload) });
    } catch (error) {
      this.deps.logger.error('compacted table reader failed to start', {
        topics: [...this.views.keys()],
        error: errorMessage(error),
      });
      this.failAll(error);
      await this.consumer?.disconnect().catch(() => undefined);
    }
  }

  private failAll(error: unknown): void {
    for (const views of this.views.values()) views.forEach((view) => view.fail(error));
  }

  /** Returns true when that was the reader's last table and it stopped. */
  async detach(view: TableView<unknown>): Promise<boolean> {
    const views = this.views.get(view.topic);
    views?.delete(view);
    if (views?.size === 0) this.views.delete(view.topic);
    if (this.views.size > 0) return false;
    await this.stop();
    return true;
  }

  stop(): Promise<void> {
    this.stopping ??= (async () => {
      // Disconnecting a consumer that is still connecting leaves it half alive: let the start finish.
      await this.starting;
      await this.consumer?.disconnect();
    })();
    return this.stopping;
  }

  private async readEndOffsetsPatiently(): Promise<void> {
    await retryWhileRetriable(() => this.readEndOffsets(), {
      windowMs: START_RETRY_WINDOW_MS,
      stopped: () => this.stopping !== undefined,
      onRetry: (attempt, error) =>
        this.deps.logger.warn('compacted table reader waiting for partition leaders', {
          topics: [...this.views.keys()],
          attempt,
          error: errorMessage(error),
        }),
    });
  }

  private async readEndOffsets(): Promise<void> {
    const admin = await this.deps.admin();
    for (const topic of this.views.keys()) {
      const unread = new Map<number, number>();
      for (const { partition, high, low } of await admin.fetchTopicOffsets(topic)) {
        if (Number(high) > Number(low)) unread.set(partition, Number(high));
      }
      this.unread.set(topic, unread);
      if (unread.size === 0) this.markCaughtUp(topic);
    }
  }

  private async apply({ batch }: EachBatchPayload): Promise<void> {
    const views = this.views.get(batch.topic) ?? new Set();
    for (const message of batch.messages) {
      const decoded = decodeKafkaMessage(batch.topic, batch.partition, message);
      if (!decoded.ok) {
        this.deps.logger.error('table skipped a record whose value is not JSON', {
          topic: batch.topic,
          partition: batch.partition,
          offset: message.offset,
        });
        continue;
      }
      for (const view of views) view.apply(decoded.record.key, decoded.record.value);
    }
    this.advance(batch.topic, batch.partition, Number(batch.lastOffset()) + 1);
  }

  private advance(topic: string, partition: number, nextOffset: number): void {
    const unread = this.unread.get(topic);
    const end = unread?.get(partition);
    if (unread === undefined || end === undefined || nextOffset < end) return;
    unread.delete(partition);
    if (unread.size === 0) this.markCaughtUp(topic);
  }

  private markCaughtUp(topic: string): void {
    this.views.get(topic)?.forEach((view) => view.markCaughtUp());
  }
}
