import { InProcessEventBus } from '../in-process/in-process-event-bus';
import type { EventRecord } from '../port/event-bus.port';
import { silentEventBusLogger } from './logger';
import { NamespacedEventBus } from './namespaced-event-bus';

const eventually = async <T>(probe: () => T | undefined): Promise<T> => {
  for (let i = 0; i < 200; i++) {
    const value = probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('timed out');
};

describe('NamespacedEventBus', () => {
  let inner: InProcessEventBus;
  let bus: NamespacedEventBus;

  beforeEach(() => {
    inner = new InProcessEventBus({ logger: silentEventBusLogger });
    bus = new NamespacedEventBus(inner, 'tabc.');
  });
  afterEach(() => bus.close());

  it('keeps topics and groups apart on the broker and shows the platform names to its users', async () => {
    await bus.ensureTopics([{ name: 'usage.recorded' }]);
    await inner.ensureTopics([{ name: 'usage.recorded' }]);
    const seen: EventRecord[] = [];
    const subscription = await bus.subscribe({
      groupId: 'billing.usage',
      topics: ['usage.recorded'],
      handler: async (batch) => void seen.push(...batch),
    });
    const outsider: EventRecord[] = [];
    const outside = await inner.subscribe({
      groupId: 'billing.usage',
      topics: ['tabc.usage.recorded'],
      handler: async (batch) => void outsider.push(...batch),
    });

    await bus.publish([{ topic: 'usage.recorded', key: '7', value: { n: 1 } }]);
    await inner.publish([{ topic: 'usage.recorded', key: '8', value: { n: 2 } }]);

    const [record] = await eventually(() => (seen.length ? seen : undefined));
    expect(record).toMatchObject({ topic: 'usage.recorded', key: '7', value: { n: 1 } });
    // The same group name outside the namespace is another group: it gets its own copy.
    await eventually(() => (outsider.length ? outsider : undefined));
    expect(seen).toHaveLength(1);
    await subscription.stop();
    await outside.stop();
  });

  it('reads tables and consumer lag under the namespace', async () => {
    await bus.ensureTopics([{ name: 'identity.user', compacted: true }]);
    await bus.publish([{ topic: 'identity.user', key: '1', value: { id: 1 } }]);
    const table = await bus.table('identity.user');
    await table.caughtUp();
    expect(table.get('1')).toEqual({ id: 1 });
    await table.stop();

    const lag = await bus.consumerLag('auth.token-usage', 'identity.user');
    expect(lag.every((partition) => partition.topic === 'identity.user')).toBe(true);
    expect(lag.reduce((sum, partition) => sum + partition.lag, 0)).toBe(1);
  });

  it('shows dead letters with the platform names of their topic and group', async () => {
    await bus.ensureTopics([{ name: 'identity.user' }, { name: 'identity.user.dlq' }]);
    const dead: EventRecord[] = [];
    const dlq = await bus.subscribe({
      groupId: 'watcher',
      topics: ['identity.user.dlq'],
      handler: async (batch) => void dead.push(...batch),
    });
    const failing = await bus.subscribe({
      groupId: 'billing.identity-user',
      topics: ['identity.user'],
      maxAttempts: 1,
      backoff: { initialDelayMs: 1, maxDelayMs: 1 },
      handler: () => Promise.reject(new Error('bad id')),
    });
    await bus.publish([{ topic: 'identity.user', key: '9', value: { id: 'x' } }]);

    const [letter] = await eventually(() => (dead.length ? dead : undefined));
    expect(letter!.topic).toBe('identity.user.dlq');
    expect(letter!.headers).toMatchObject({
      'x-dlq-topic': 'identity.user',
      'x-dlq-group-id': 'billing.identity-user',
    });
    await failing.stop();
    await dlq.stop();
  });
});
