import type { Message, Producer, TopicMessages } from 'kafkajs';
import type { OutgoingEvent } from '../port/event-bus.port';
import { CoalescingQueue } from '../shared/coalescing-queue';
import { assertValidEvent } from '../shared/validate-events';
import { toKafkaMessage, type KafkaMessageOut } from './kafka-codec';

export interface KafkaPublisherOptions {
  /**
   * Least time between the starts of two produce requests (default `DEFAULT_LINGER_MS`). A publish when
   * none was sent that long ago goes at once; under load, publishes gather for the rest of it and share one.
   */
  lingerMs?: number;
  /** Most messages in one produce request (default 2000). */
  maxBatchMessages?: number;
  /**
   * Most bytes (keys, values and headers) in one produce request (default 512 KiB). The broker refuses
   * a partition's batch over its message.max.bytes (1 MiB by default) as a whole, and one publish() may
   * carry thousands of events (a usage sink republishing what many calls left at once).
   */
  maxRequestBytes?: number;
}

/**
 * The broker spends about as much on a produce request whatever it carries (acks -1, idempotent), so
 * under load its cost goes by requests: at 600 events/s (bench/micro/kafka-broker-cost.mjs), 10 ms
 * made 82-92 requests a second and cost the broker 57-62 ms/s and the publishing process 134-146;
 * 25 ms, 39-40 requests, 37-59 and 95-114 ms/s; 50 ms, 20 requests, 24-37 (one run 92) and 81-96.
 * What a publisher killed outright loses grows with it: under load, at most the last 25 ms of events
 * and the request in flight (see docs/relay.md, "Usage spool").
 */
export const DEFAULT_LINGER_MS = 25;

interface QueuedMessage {
  topic: string;
  message: Message;
  bytes: number;
}

type BatchProducer = Pick<Producer, 'connect' | 'disconnect' | 'sendBatch'>;

/**
 * Coalesces concurrent publish() calls into one `sendBatch`: the relay publishes one event per
 * API request, and a produce round trip per request would cap throughput. The producer is
 * idempotent with one request in flight, so batches land in the order they were published.
 *
 * A lone publish is not held back for company (a timer would wake the process once more per call
 * at a low rate): it is sent at once, and batches form while a request is in flight or within
 * `lingerMs` of the last one's start, so under load requests go out at most every `lingerMs`.
 */
export class KafkaPublisher {
  private readonly queue: CoalescingQueue<QueuedMessage>;
  private readonly maxRequestBytes: number;
  private connection: Promise<void> | undefined;

  constructor(
    private readonly producer: BatchProducer,
    options: KafkaPublisherOptions = {},
  ) {
    this.maxRequestBytes = options.maxRequestBytes ?? 512 * 1024;
    this.queue = new CoalescingQueue({
      flush: (messages) => this.send(messages),
      lingerMs: options.lingerMs ?? DEFAULT_LINGER_MS,
      maxBatchSize: options.maxBatchMessages ?? 2000,
    });
  }

  /**
   * Resolves when all of these events are acknowledged by every in-sync replica. Not async: the promise
   * is the queue's, one for every publish its flush carries.
   */
  publish(events: OutgoingEvent[]): Promise<void> {
    let messages: QueuedMessage[];
    try {
      // Encoding here, not at flush, so a bad event fails only its own publish() call.
      messages = events.map(queuedMessage);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.queue.push(messages);
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
    // One request after another, in order: the producer keeps one in flight anyway.
    for (const request of splitByBytes(messages, this.maxRequestBytes)) {
      await this.producer.sendBatch({ topicMessages: groupByTopic(request), acks: -1 });
    }
  }
}

function queuedMessage(event: OutgoingEvent): QueuedMessage {
  assertValidEvent(event);
  const message = toKafkaMessage(event);
  return { topic: event.topic, message, bytes: messageBytes(message) };
}

/** The key's, value's and headers' bytes, as toKafkaMessage made them (a string key, a Buffer value). */
function messageBytes(message: KafkaMessageOut): number {
  let bytes = Buffer.byteLength(message.key) + (message.value === null ? 0 : message.value.length);
  const headers = message.headers;
  for (const name of Object.keys(headers))
    bytes += Buffer.byteLength(name) + Buffer.byteLength(headers[name]);
  return bytes;
}

/** Consecutive runs of messages of at most `maxBytes` each (a larger message goes alone). */
function splitByBytes(messages: QueuedMessage[], maxBytes: number): QueuedMessage[][] {
  const requests: QueuedMessage[][] = [];
  let current: QueuedMessage[] = [];
  let bytes = 0;
  for (const queued of messages) {
    if (current.length > 0 && bytes + queued.bytes > maxBytes) {
      requests.push(current);
      current = [];
      bytes = 0;
    }
    current.push(queued);
    bytes += queued.bytes;
  }
  if (current.length > 0) requests.push(current);
  return requests;
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
