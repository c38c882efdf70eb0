import { createEventBus, NamespacedEventBus } from '@tollgate/events';
import { ConfigError } from '@tollgate/platform';
import { createDistributedRuntime } from './distributed-runtime';

jest.mock('@tollgate/events', () => {
  const actual = jest.requireActual<typeof import('@tollgate/events')>('@tollgate/events');
  return { ...actual, createEventBus: jest.fn(actual.createEventBus) };
});

const KAFKA = { KAFKA_BROKERS: '127.0.0.1:1' };

describe('createDistributedRuntime', () => {
  afterEach(() => jest.mocked(createEventBus).mockClear());

  it('gives the Kafka consumers the session timeout KAFKA_SESSION_TIMEOUT_MS names', async () => {
    const runtime = createDistributedRuntime({ ...KAFKA, KAFKA_SESSION_TIMEOUT_MS: '8000' }, 'billing', {
      bus: true,
      kv: false,
    });
    expect(jest.mocked(createEventBus).mock.calls[0]![0]).toMatchObject({
      kind: 'kafka',
      clientId: 'billing',
      consumer: { sessionTimeout: 8000 },
    });
    await runtime.bus.close();
  });

  it("leaves kafkajs's session timeout alone without it", async () => {
    const runtime = createDistributedRuntime(KAFKA, 'billing', { bus: true, kv: false });
    expect(jest.mocked(createEventBus).mock.calls[0]![0]).not.toHaveProperty('consumer');
    expect(jest.mocked(createEventBus).mock.calls[0]![0]).not.toHaveProperty('topicPrefix');
    await runtime.bus.close();
  });

  it('puts the platform on the broker under KAFKA_TOPIC_PREFIX', async () => {
    const runtime = createDistributedRuntime({ ...KAFKA, KAFKA_TOPIC_PREFIX: 'staging.' }, 'billing', {
      bus: true,
      kv: false,
    });
    expect(jest.mocked(createEventBus).mock.calls[0]![0]).toMatchObject({ topicPrefix: 'staging.' });
    expect(runtime.bus).toBeInstanceOf(NamespacedEventBus);
    await runtime.bus.close();
  });

  it('refuses a prefix Kafka would refuse in a topic name', () => {
    expect(() =>
      createDistributedRuntime({ ...KAFKA, KAFKA_TOPIC_PREFIX: 'prod/eu' }, 'billing', {
        bus: true,
        kv: false,
      }),
    ).toThrow(ConfigError);
  });

  it('refuses a session timeout the broker would refuse (under 6 s)', () => {
    expect(() =>
      createDistributedRuntime({ ...KAFKA, KAFKA_SESSION_TIMEOUT_MS: '1000' }, 'billing', {
        bus: true,
        kv: false,
      }),
    ).toThrow(ConfigError);
  });
});
