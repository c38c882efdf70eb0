import type {
  BatchingOptions,
  CompactedTable,
  EventBus,
  EventRecord,
  OutgoingEvent,
  SubscribeOptions,
  Subscription,
  TopicSpec,
} from '../port/event-bus.port';
import { partitionLag, type ConsumerLagReader, type PartitionLag } from '../port/consumer-lag.port';
import { consoleEventBusLogger, type EventBusLogger } from '../shared/logger';
import { partitionForKey } from '../shared/partitioner';
import { TableView } from '../shared/table-view';
import { assertValidTopicName } from '../shared/topic-name';
import {
  assertValidEvent,
  assertValidSubscription,
  deliveryPolicy,
  encodeValue,
} from '../shared/validate-events';
import { CommittedOffsets } from './committed-offsets';
import { ConsumerGroups, type GroupMember } from './consumer-groups';
import type { LogRecord } from './log-record';
import { Partition } from './partition';
import { DataDir, type StoredPartition } from './persistence/data-dir';

/** A subscription whose values arrive as JSON text: nothing to decode. */
export type EncodedSubscribeOptions = Omit<SubscribeOptions<string | null>, 'decode'>;

export interface InProcessEventBusOptions {
  /** Persist topics and committed offsets here; without it everything lives in memory. */
  dataDir?: string;
  /** Partitions of a topic created without an explicit count (default 3). */
  defaultPartitions?: number;
  /** Plain (not compacted) topics keep this many records per partition beyond what groups still need (default 10 000). */
  retainRecordsPerPartition?: number;
  logger?: EventBusLogger;
}

interface Topic {
  name: string;
  compacted: boolean;
  partitions: Partition[];
}

/**
 * The embedded mode's event bus: Kafka's semantics (partitions, consumer groups, committed
 * offsets, compaction, dead letters) for services that share one Node process.
 */
export class InProcessEventBus implements EventBus, ConsumerLagReader {
  private readonly logger: EventBusLogger;
  private readonly defaultPartitions: number;
  private readonly retainRecords: number;
  private readonly dataDir: DataDir | undefined;
  private readonly offsets: CommittedOffsets;
  private readonly groups: ConsumerGroups;
  private readonly topics = new Map<string, Topic>();
  private readonly creatingTopics = new Map<string, Promise<void>>();
  private readonly subscriptions = new Set<Subscription>();
  private readonly tables = new Set<TableView<unknown>>();
  private nextMemberId = 1;
  private closed = false;
  /** Publishes waiting for the loop's check phase (see `publish`), appended in the order they came. */
  private deferred: Array<{
    events: OutgoingEvent[];
    resolve: () => void;
    reject: (error: unknown) => void;
  }> = [];
  private deferredRun: NodeJS.Immediate | undefined;

  constructor(options: InProcessEventBusOptions = {}) {
    this.logger = options.logger ?? consoleEventBusLogger;
    this.defaultPartitions = options.defaultPartitions ?? 3;
    this.retainRecords = options.retainRecordsPerPartition ?? 10_000;
    this.dataDir = options.dataDir === undefined ? undefined : new DataDir(options.dataDir, this.logger);
    try {
      this.offsets = new CommittedOffsets(this.dataDir?.loadOffsets() ?? [], this.dataDir?.offsetsStorage());
      for (const stored of this.dataDir?.loadTopics() ?? []) {
        const topic = this.addTopic(stored.name, stored.compacted, stored.contents);
        for (const partition of topic.partitions) partition.maintainOnLoad();
      }
    } catch (error) {
      this.dataDir?.close();
      throw error;
    }
    this.groups = new ConsumerGroups({
      partitions: (topic) => this.requireTopic(topic).partitions.map((partition) => partition.log),
      offsets: this.offsets,
      publishDeadLetter: (event) => this.publishDeadLetter(event),
      logger: this.logger,
    });
  }

  async ensureTopics(specs: TopicSpec[]): Promise<void> {
    this.assertOpen();
    await Promise.all(specs.map((spec) => this.ensureTopic(spec)));
  }

  /**
   * Checked at once (a bad event or an unknown topic rejects the whole publish), appended in the
   * loop's check phase: whatever the publisher does next in this turn goes first. In embedded mode
   * relay publishes a call's usage.recorded in the turn that answers it; the gateway's reply to the
   * client (which reaches it from relay through a setImmediate, libs/runtime InMemorySocket) then
   * leaves before the record is encoded, written to its file and offered to the consumers.
   * All the publishes of one turn are appended together, in order.
   */
  async publish(events: OutgoingEvent[]): Promise<void> {
    this.assertOpen();
    for (const event of events) {
      assertValidEvent(event);
      this.requireTopic(event.topic);
    }
    if (events.length === 0) return;
    await new Promise<void>((resolve, reject) => {
      this.deferred.push({ events, resolve, reject });
      this.deferredRun ??= setImmediate(() => this.appendDeferred());
    });
  }

  private appendDeferred(): void {
    this.deferredRun = undefined;
    const waiting = this.deferred;
    this.deferred = [];
    for (const { events, resolve, reject } of waiting) this.append(events).then(resolve, reject);
  }

  private async append(events: OutgoingEvent[]): Promise<void> {
    const batches = new Map<Partition, Array<Omit<LogRecord, 'offset'>>>();
    const timestamp = Date.now();
    for (const event of events) {
      assertValidEvent(event);
      const topic = this.requireTopic(event.topic);
      const partition = topic.partitions[partitionForKey(event.key, topic.partitions.length)];
      const record = {
        key: event.key,
        value: encodeValue(event),
        headers: event.headers ? { ...event.headers } : {},
        timestamp,
      };
      const batch = batches.get(partition);
      if (batch) batch.push(record);
      else batches.set(partition, [record]);
    }
    await Promise.all([...batches].map(([partition, records]) => partition.append(records)));
  }

  async subscribe<T = unknown>(options: SubscribeOptions<T>): Promise<Subscription> {
    return this.join(options as SubscribeOptions<unknown>, false);
  }

  /**
   * As `subscribe`, but each record's value reaches the handler as the JSON text the log holds (null
   * for a tombstone), neither parsed nor copied, and its headers are the log's own object (read them,
   * never change them). For a consumer that only passes records on: the bridge to the bookkeeping
   * worker, which parses them on its own thread, so that this one (gateway and relay) does not parse
   * and structured-clone every value for each group: about 4 µs a record each, in one burst per batch.
   * Meant for a handler that never fails for good: a record it dead-letters carries that text as its value.
   */
  subscribeEncoded(options: EncodedSubscribeOptions): Promise<Subscription> {
    return this.join(options as SubscribeOptions<unknown>, true);
  }

  private async join(options: SubscribeOptions<unknown>, encoded: boolean): Promise<Subscription> {
    this.assertOpen();
    assertValidSubscription(options);
    options.topics.forEach((topic) => this.requireTopic(topic));
    const member: GroupMember = {
      id: this.nextMemberId++,
      groupId: options.groupId,
      topics: [...new Set(options.topics)],
      fromBeginning: options.fromBeginning ?? true,
      handler: options.handler as (batch: EventRecord[]) => Promise<void>,
      decode: options.decode,
      policy: deliveryPolicy(options),
      batching: options.batching && validBatching(options.batching),
      encoded,
    };
    await this.groups.join(member);
    let stopping: Promise<void> | undefined;
    const subscription: Subscription = {
      stop: () => {
        stopping ??= this.groups.leave(member).finally(() => this.subscriptions.delete(subscription));
        return stopping;
      },
    };
    this.subscriptions.add(subscription);
    return subscription;
  }

  async table<T>(topicName: string, decode?: (value: unknown) => T): Promise<CompactedTable<T>> {
    this.assertOpen();
    const topic = this.requireTopic(topicName);
    const detachers: Array<() => void> = [];
    const view = new TableView<T>(topicName, decode, this.logger, async (stopped) => {
      detachers.forEach((detach) => detach());
      this.tables.delete(stopped as TableView<unknown>);
    });
    const apply = (records: readonly LogRecord[]) => {
      for (const record of records)
        view.apply(record.key, record.value === null ? null : JSON.parse(record.value));
    };
    // Reading what is there and listening for more happen in one synchronous step: nothing slips between.
    for (const partition of topic.partitions) {
      apply(partition.log.snapshot());
      detachers.push(partition.log.onAppend(apply));
    }
    view.markCaughtUp();
    this.tables.add(view as TableView<unknown>);
    return view;
  }

  async consumerLag(groupId: string, topicName: string): Promise<PartitionLag[]> {
    this.assertOpen();
    return this.requireTopic(topicName).partitions.map(({ log }) =>
      partitionLag(
        topicName,
        log.partition,
        { startOffset: log.startOffset, endOffset: log.endOffset },
        this.offsets.get(groupId, topicName, log.partition) ?? null,
      ),
    );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // What was published before close is appended (and drained below), not left to a later turn.
    if (this.deferredRun) {
      clearImmediate(this.deferredRun);
      this.appendDeferred();
    }
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
    await Promise.all([...this.tables].map((table) => table.stop()));
    await Promise.all([...this.creatingTopics.values()].map((creation) => creation.catch(() => undefined)));
    for (const topic of this.topics.values()) {
      await Promise.all(topic.partitions.map((partition) => partition.drain()));
    }
    await this.offsets.drain();
    this.dataDir?.close();
  }

  private async ensureTopic(spec: TopicSpec): Promise<void> {
    assertValidTopicName(spec.name);
    const existing = this.topics.get(spec.name);
    if (existing) {
      if (spec.compacted !== undefined && spec.compacted !== existing.compacted) {
        this.logger.warn('topic exists with another cleanup policy; left as it is', {
          topic: spec.name,
          compacted: existing.compacted,
        });
      }
      return;
    }
    const pending = this.creatingTopics.get(spec.name);
    if (pending) return pending;
    const partitions = spec.partitions ?? this.defaultPartitions;
    if (!Number.isInteger(partitions) || partitions < 1) {
      throw new RangeError(`Topic ${spec.name} needs a positive partition count, got ${partitions}`);
    }
    const compacted = spec.compacted ?? false;
    const creation = (async () => {
      await this.dataDir?.createTopic(spec.name, { compacted, partitions });
      this.addTopic(
        spec.name,
        compacted,
        Array.from({ length: partitions }, () => ({ records: [], segments: [] })),
      );
    })().finally(() => this.creatingTopics.delete(spec.name));
    this.creatingTopics.set(spec.name, creation);
    return creation;
  }

  private addTopic(name: string, compacted: boolean, stored: StoredPartition[]): Topic {
    const partitions = stored.map(
      (storedPartition, partition) =>
        new Partition(
          name,
          partition,
          storedPartition,
          // Offsets are never reused, even if a log lost its tail: a group may already be past them.
          this.offsets.highestCommitted(name, partition),
          {
            compacted,
            retainRecords: this.retainRecords,
            consumedBelow: () => this.offsets.consumedBelow(name, partition),
          },
          this.dataDir?.partitionStorage(name, partition),
          this.logger,
        ),
    );
    const topic = { name, compacted, partitions };
    this.topics.set(name, topic);
    return topic;
  }

  private async publishDeadLetter(event: OutgoingEvent): Promise<void> {
    await this.ensureTopic({ name: event.topic });
    await this.append([event]);
  }

  private requireTopic(name: string): Topic {
    const topic = this.topics.get(name);
    if (!topic) throw new Error(`Unknown topic "${name}": create it with ensureTopics first`);
    return topic;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('The event bus is closed');
  }
}

function validBatching(batching: BatchingOptions): BatchingOptions {
  const { minBytes, maxWaitMs } = batching;
  if (!(minBytes >= 0) || !(maxWaitMs >= 0) || !Number.isFinite(maxWaitMs)) {
    throw new RangeError(`invalid batching ${JSON.stringify(batching)}`);
  }
  return { minBytes, maxWaitMs };
}
