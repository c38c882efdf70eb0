import type {
  CompactedTable,
  EventBus,
  OutgoingEvent,
  SubscribeOptions,
  Subscription,
  TopicSpec,
} from '@tollgate/events';
import { currentCorrelationHeaders, runWithCorrelation } from '@tollgate/platform';

/**
 * The bus services see: every event published inside a request carries that request's ids in its
 * headers (explicit headers win), and every handler runs in the context its batch's first record
 * carries, so one request can be followed from the gateway through Kafka into each consumer's logs.
 */
export class CorrelatedEventBus implements EventBus {
  constructor(private readonly inner: EventBus) {}

  ensureTopics(topics: TopicSpec[]): Promise<void> {
    return this.inner.ensureTopics(topics);
  }

  publish(events: OutgoingEvent[]): Promise<void> {
    const correlation = currentCorrelationHeaders();
    if (Object.keys(correlation).length === 0) return this.inner.publish(events);
    return this.inner.publish(events.map((e) => ({ ...e, headers: { ...correlation, ...e.headers } })));
  }

  subscribe<T = unknown>(options: SubscribeOptions<T>): Promise<Subscription> {
    return this.inner.subscribe<T>({
      ...options,
      handler: (batch) => runWithCorrelation(batch[0]?.headers, () => options.handler(batch)),
    });
  }

  table<T>(topic: string, decode?: (value: unknown) => T): Promise<CompactedTable<T>> {
    return this.inner.table(topic, decode);
  }

  /** The runtime owns the underlying bus and closes it; a service closing does not. */
  async close(): Promise<void> {}
}
