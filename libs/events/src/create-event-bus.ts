import type { EventBus } from './port/event-bus.port';
import { InProcessEventBus } from './in-process/in-process-event-bus';
import { KafkaEventBus } from './kafka/kafka-event-bus';
import { NamespacedEventBus } from './shared/namespaced-event-bus';
import type { KafkaConsumerTuning } from './kafka/kafka-consumer-tuning';
import type { EventBusLogger } from './shared/logger';

export type EventBusConfig =
  | {
      kind: 'kafka';
      brokers: string[];
      clientId: string;
      logger?: EventBusLogger;
      consumer?: KafkaConsumerTuning;
      /** Put before every topic and consumer group on the broker (a platform's corner of a shared cluster). */
      topicPrefix?: string;
    }
  | { kind: 'memory'; dataDir?: string; logger?: EventBusLogger };

/** Picks the adapter for the runtime mode: Kafka when distributed, in-process when embedded. */
export function createEventBus(config: EventBusConfig): EventBus {
  switch (config.kind) {
    case 'kafka': {
      const kafka = new KafkaEventBus({
        brokers: config.brokers,
        clientId: config.clientId,
        logger: config.logger,
        ...(config.consumer ? { consumer: config.consumer } : {}),
      });
      return config.topicPrefix ? new NamespacedEventBus(kafka, config.topicPrefix) : kafka;
    }
    case 'memory':
      return new InProcessEventBus({ dataDir: config.dataDir, logger: config.logger });
  }
}
