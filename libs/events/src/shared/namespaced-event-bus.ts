import type { ConsumerLagReader, PartitionLag } from '../port/consumer-lag.port';
import { readsConsumerLag } from '../port/consumer-lag.port';
import {
  DEAD_LETTER_HEADERS,
  type CompactedTable,
  type EventBus,
  type EventRecord,
  type OutgoingEvent,
  type SubscribeOptions,
  type Subscription,
  type TopicSpec,
} from '../port/event-bus.port';

/**
 * One platform's (or one test run's) own corner of a shared Kafka cluster: every topic and consumer
 * group it uses gets the prefix on the broker, and loses it again on the way back, so services see
 * the platform's names. Without it, two platforms on one cluster meet in `usage.recorded` and in
 * groups like `billing.usage`: one platform's billing charges the other's usage to its own users
 * (KAFKA_TOPIC_PREFIX; the test harness gives each run its own prefix the same way).
 */
export class NamespacedEventBus implements EventBus, ConsumerLagReader {
  constructor(
    private readonly inner: EventBus,
    private readonly prefix: string,
  ) {}

  ensureTopics(topics: TopicSpec[]): Promise<void> {
    return this.inner.ensureTopics(topics.map((topic) => ({ ...topic, name: this.outward(topic.name) })));
  }

  publish(events: OutgoingEvent[]): Promise<void> {
    return this.inner.publish(events.map((event) => ({ ...event, topic: this.outward(event.topic) })));
  }

  subscribe<T = unknown>(options: SubscribeOptions<T>): Promise<Subscription> {
    return this.inner.subscribe<T>({
      ...options,
      groupId: this.outward(options.groupId),
      topics: options.topics.map((topic) => this.outward(topic)),
      handler: (batch) => options.handler(batch.map((record) => this.inwardRecord(record))),
    });
  }

  table<T>(topic: string, decode?: (value: unknown) => T): Promise<CompactedTable<T>> {
    return this.inner.table(this.outward(topic), decode);
  }

  async consumerLag(groupId: string, topic: string): Promise<PartitionLag[]> {
    if (!readsConsumerLag(this.inner)) throw new Error('the wrapped event bus cannot report consumer lag');
    const lags = await this.inner.consumerLag(this.outward(groupId), this.outward(topic));
    return lags.map((lag) => ({ ...lag, topic: this.inward(lag.topic) }));
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private outward(name: string): string {
    return `${this.prefix}${name}`;
  }

  private inward(name: string): string {
    return name.startsWith(this.prefix) ? name.slice(this.prefix.length) : name;
  }

  private inwardRecord<T>(record: EventRecord<T>): EventRecord<T> {
    const topic = this.inward(record.topic);
    // Only a dead-lettered record names a topic and a group in its headers: the others keep theirs.
    if (record.headers[DEAD_LETTER_HEADERS.topic] === undefined) return { ...record, topic };
    const headers = { ...record.headers };
    for (const header of [DEAD_LETTER_HEADERS.topic, DEAD_LETTER_HEADERS.groupId]) {
      const value = headers[header];
      if (value !== undefined) headers[header] = this.inward(value);
    }
    return { ...record, topic, headers };
  }
}
