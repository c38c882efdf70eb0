import type { Message, Producer, TopicMessages } from 'kafkajs';
import type { OutgoingEvent } from '../port/event-bus.port';
import { CoalescingQueue } from '../shared/coalescing-queue';
import { assertValidEvent } from '../shared/validate-events';
import { toKafkaMessage } from './kafka-codec';

export interface KafkaPublisherOptions {
  /** How long a publish waits for others to share its produce request (default 2 ms). */
  lingerMs?: number;
  /** Most messages in one produce request (default 2000). */
  maxBatchMessages?: number;
}

interface QueuedMessage {
  topic: string;
  message: Message;
}

type BatchProducer = Pick<Producer, 'connect' | 'disconnect' | 'sendBatch'>;

/**
 * Coalesces concurrent publish() calls into one `sendBatch`: the relay publishes one event per
 * API request, and a produce round trip per request would cap throughput. The producer is
 * idempotent with one request in flight, so batches land in the order they were published.
 */
export class KafkaPublisher {
  private readonly queue: CoalescingQueue<QueuedMessage>;
  private connection: Promise<void> | undefined;

  constructor(
    private readonly producer: BatchProducer,
    options: KafkaPublisherOptions = {},
  ) {
    this.queue = new CoalescingQueue({
      flush: (messages) => this.send(messages),
      lingerMs: options.lingerMs ?? 2,
      maxBatchSize: options.maxBatchMessages ?? 2000,
    });
  }

  /** Resolves when all of these events are acknowledged by every in-sync replica. */
  async publish(events: OutgoingEvent[]): Promise<void> {
    // Encoding here, not at flush, so a bad event fails only its own publish() call.
    const messages = events.map((event) => {
      assertValidEvent(event);
      return { topic: event.topic, message: toKafkaMessage(event) };
    });
    await this.queue.push(messages);
  }

  async close(): Promise<void> {
    await this.queue.drain();
    if (this.connection) {
      await this.connection.catch(() => undefined);
      await this.producer.disconnect();
    }
  }

  private async send(messages: QueuedMessage[]): Promise<void> {
    this.connection ??= this.producer.connect();
    try {
      await this.connection;
    } catch (error) {
      this.connection = undefined;
      throw error;
    }
    await this.producer.sendBatch({ topicMessages: groupByTopic(messages), acks: -1 });
  }
}

function groupByTopic(messages: QueuedMessage[]): TopicMessages[] {
  const byTopic = new Map<string, Message[]>();
  for (const { topic, message } of messages) {
    const list = byTopic.get(topic);
    if (list) list.push(message);
    else byTopic.set(topic, [message]);
  }
  return [...byTopic].map(([topic, topicMessages]) => ({ topic, messages: topicMessages }));
}
