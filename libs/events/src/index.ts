export * from './port/event-bus.port';
export { readsConsumerLag, type ConsumerLagReader, type PartitionLag } from './port/consumer-lag.port';
export { InProcessEventBus, type InProcessEventBusOptions } from './in-process/in-process-event-bus';
export { KafkaEventBus, type KafkaEventBusOptions } from './kafka/kafka-event-bus';
export type { KafkaConsumerTuning } from './kafka/kafka-consumer-tuning';
export { logLevel as KafkaLogLevel } from 'kafkajs';
export { createEventBus, type EventBusConfig } from './create-event-bus';
export { consoleEventBusLogger, silentEventBusLogger, type EventBusLogger } from './shared/logger';
export { partitionForKey } from './shared/partitioner';
