// First: kafkajs's producer binds its grouping function when kafkajs loads (kafkajs-partition-grouping.ts).
import './kafkajs-partition-grouping';
import { Kafka, logLevel as KafkaLogLevel, type Admin, type RetryOptions } from 'kafkajs';
import type {
  CompactedTable,
  EventBus,
  OutgoingEvent,
  SubscribeOptions,
  Subscription,
  TopicSpec,
} from '../port/event-bus.port';
import type { ConsumerLagReader, PartitionLag } from '../port/consumer-lag.port';
import { consoleEventBusLogger, type EventBusLogger } from '../shared/logger';
import { assertValidTopicName } from '../shared/topic-name';
import { assertValidSubscription } from '../shared/validate-events';
import type { KafkaConsumerTuning } from './kafka-consumer-tuning';
import { kafkaLogCreator } from './kafka-log';
import { keyHashPartitioner } from './kafka-partitioner';
import { readKafkaConsumerLag } from './kafka-consumer-lag';
import { KafkaPublisher, type KafkaPublisherOptions } from './kafka-publisher';
import { fixKafkajsIdleTimer } from './kafkajs-idle-timer-fix';
import { controlKafkajsFetches } from './kafkajs-fetch-control';
import { decodeKafkajsFetchesDirectly } from './kafkajs-fetch-decoding';
import { encodeKafkajsProduceRequestsInOnePass } from './kafkajs-produce-encoding';
import { KafkaSubscription } from './kafka-subscription';
import { KafkaTables } from './kafka-tables';
import { KafkaTopics } from './kafka-topics';

fixKafkajsIdleTimer();
controlKafkajsFetches();
encodeKafkajsProduceRequestsInOnePass();
decodeKafkajsFetchesDirectly();

export interface KafkaEventBusOptions extends KafkaPublisherOptions {
  brokers: string[];
  clientId: string;
  /** kafkajs' own log level (default WARN); its lines go to `logger`. */
  logLevel?: KafkaLogLevel;
  logger?: EventBusLogger;
  /** Partitions of a topic created without an explicit count (default 3). */
  defaultPartitions?: number;
  /** Replicas of created topics (default: 3, or the broker count when smaller). */
  replicationFactor?: number;
  consumer?: KafkaConsumerTuning;
  /** Retries of the kafkajs client (connections, metadata, produce). */
  retry?: RetryOptions;
  connectionTimeout?: number;
  requestTimeout?: number;
}

/** The distributed mode's event bus on Kafka (kafkajs). */
export class KafkaEventBus implements EventBus, ConsumerLagReader {
  private readonly kafka: Kafka;
  private readonly logger: EventBusLogger;
  private readonly publisher: KafkaPublisher;
  private readonly topics: KafkaTopics;
  private readonly tables: KafkaTables;
  private readonly tuning: KafkaConsumerTuning;
  private readonly subscriptions = new Set<Subscription>();
  private adminConnection: Promise<Admin> | undefined;
  private closed = false;

  constructor(private readonly options: KafkaEventBusOptions) {
    if (options.brokers.length === 0) throw new Error('KafkaEventBus needs at least one broker');
    this.logger = options.logger ?? consoleEventBusLogger;
    this.tuning = options.consumer ?? {};
    this.kafka = new Kafka({
      clientId: options.clientId,
      brokers: options.brokers,
      logLevel: options.logLevel ?? KafkaLogLevel.WARN,
      logCreator: kafkaLogCreator(this.logger),
      retry: options.retry,
      connectionTimeout: options.connectionTimeout,
      requestTimeout: options.requestTimeout,
    });
    this.publisher = new KafkaPublisher(
      this.kafka.producer({
        idempotent: true,
        maxInFlightRequests: 1,
        allowAutoTopicCreation: false,
        // The Java client's murmur2 partitioner, the same one the in-process bus uses.
        createPartitioner: keyHashPartitioner,
        // An idempotent producer retries until maxRetryTime runs out, never by count.
        retry: { ...options.retry, retries: Number.MAX_SAFE_INTEGER },
      }),
      options,
    );
    this.topics = new KafkaTopics(
      () => this.admin(),
      options.defaultPartitions ?? 3,
      options.replicationFactor,
    );
    this.tables = new KafkaTables(
      {
        kafka: this.kafka,
        admin: () => this.admin(),
        clientId: options.clientId,
        tuning: this.tuning,
        logger: this.logger,
      },
      this.logger,
    );
  }

  async ensureTopics(specs: TopicSpec[]): Promise<void> {
    this.assertOpen();
    await this.topics.ensure(specs);
  }

  /** Not async: the publisher's promise is handed on, not wrapped in one more per call. */
  publish(events: OutgoingEvent[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error('The event bus is closed'));
    return this.publisher.publish(events);
  }

  async subscribe<T = unknown>(options: SubscribeOptions<T>): Promise<Subscription> {
    this.assertOpen();
    const untyped = options as SubscribeOptions<unknown>;
    assertValidSubscription(untyped);
    const subscription = await KafkaSubscription.start(untyped, {
      kafka: this.kafka,
      admin: () => this.admin(),
      tuning: this.tuning,
      publishDeadLetter: (event) => this.publishDeadLetter(event),
      logger: this.logger,
    });
    let stopping: Promise<void> | undefined;
    const tracked: Subscription = {
      stop: () => {
        stopping ??= subscription.stop().finally(() => this.subscriptions.delete(tracked));
        return stopping;
      },
    };
    this.subscriptions.add(tracked);
    return tracked;
  }

  /** Resolves at once; reading starts in the background and `caughtUp()` reports its outcome. */
  async table<T>(topic: string, decode?: (value: unknown) => T): Promise<CompactedTable<T>> {
    this.assertOpen();
    assertValidTopicName(topic);
    return this.tables.open(topic, decode);
  }

  async consumerLag(groupId: string, topic: string): Promise<PartitionLag[]> {
    this.assertOpen();
    assertValidTopicName(topic);
    return readKafkaConsumerLag(await this.admin(), groupId, topic);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
    await this.tables.close();
    await this.publisher.close();
    if (this.adminConnection) {
      const admin = await this.adminConnection.catch(() => undefined);
      await admin?.disconnect();
    }
  }

  private async publishDeadLetter(event: OutgoingEvent): Promise<void> {
    await this.topics.ensure([{ name: event.topic }]);
    await this.publisher.publish([event]);
  }

  private admin(): Promise<Admin> {
    if (!this.adminConnection) {
      const connection = (async () => {
        const admin = this.kafka.admin({ retry: this.options.retry });
        await admin.connect();
        return admin;
      })();
      // A failed connection is retried by the next caller instead of being cached.
      connection.catch(() => {
        if (this.adminConnection === connection) this.adminConnection = undefined;
      });
      this.adminConnection = connection;
    }
    return this.adminConnection;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('The event bus is closed');
  }
}
