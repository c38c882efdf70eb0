import { createEventBus } from './create-event-bus';
import { InProcessEventBus } from './in-process/in-process-event-bus';
import { KafkaEventBus } from './kafka/kafka-event-bus';
import { silentEventBusLogger } from './shared/logger';
import { NamespacedEventBus } from './shared/namespaced-event-bus';

describe('createEventBus', () => {
  it('builds the in-process bus for the embedded mode', async () => {
    const bus = createEventBus({ kind: 'memory', logger: silentEventBusLogger });
    expect(bus).toBeInstanceOf(InProcessEventBus);
    await bus.close();
  });

  it('builds the Kafka bus for the distributed mode without connecting yet', async () => {
    const bus = createEventBus({
      kind: 'kafka',
      brokers: ['127.0.0.1:1'],
      clientId: 'test',
      logger: silentEventBusLogger,
    });
    expect(bus).toBeInstanceOf(KafkaEventBus);
    await bus.close();
  });

  it('puts a Kafka bus with a topic prefix in its own corner of the broker', async () => {
    const bus = createEventBus({
      kind: 'kafka',
      brokers: ['127.0.0.1:1'],
      clientId: 'test',
      logger: silentEventBusLogger,
      topicPrefix: 'staging.',
    });
    expect(bus).toBeInstanceOf(NamespacedEventBus);
    await bus.close();
  });

  it('refuses a Kafka bus without brokers', () => {
    expect(() => createEventBus({ kind: 'kafka', brokers: [], clientId: 'test' })).toThrow(
      /at least one broker/,
    );
  });
});
