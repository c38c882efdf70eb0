import { silentEventBusLogger } from '../shared/logger';
import { KafkaEventBus } from './kafka-event-bus';

describe('KafkaEventBus', () => {
  it('refuses a publish after close with a rejected promise, never a throw', async () => {
    const bus = new KafkaEventBus({
      brokers: ['127.0.0.1:9'],
      clientId: 'closed',
      logger: silentEventBusLogger,
    });
    await bus.close();
    let published: Promise<void> | undefined;
    expect(() => (published = bus.publish([{ topic: 't', key: 'k', value: 1 }]))).not.toThrow();
    await expect(published).rejects.toThrow('The event bus is closed');
  });

  it('refuses an invalid event with a rejected promise, never a throw', async () => {
    const bus = new KafkaEventBus({
      brokers: ['127.0.0.1:9'],
      clientId: 'invalid',
      logger: silentEventBusLogger,
    });
    let published: Promise<void> | undefined;
    expect(
      () => (published = bus.publish([{ topic: 'no spaces allowed', key: 'k', value: 1 }])),
    ).not.toThrow();
    await expect(published).rejects.toThrow(/Invalid topic name/);
    await bus.close();
  });
});
