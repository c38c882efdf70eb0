import { DEAD_LETTER_HEADERS, type EventRecord, type Subscription } from '../port/event-bus.port';
import type { EventBusLogger } from '../shared/logger';
import { InProcessEventBus } from './in-process-event-bus';

interface Order {
  n: number;
}

function decodeOrder(value: unknown): Order {
  const n = (value as { n?: unknown } | null)?.n;
  if (typeof n !== 'number') throw new Error('n: not a number');
  return { n };
}

describe('InProcessEventBus with a decoding subscription', () => {
  const warnings: Array<{ message: string; context?: Record<string, unknown> }> = [];
  const logger: EventBusLogger = {
    info: () => undefined,
    warn: (message, context) => void warnings.push({ message, context }),
    error: () => undefined,
  };
  const bus = new InProcessEventBus({ logger });
  const subscriptions: Subscription[] = [];

  beforeAll(() =>
    bus.ensureTopics([
      { name: 'orders', partitions: 1 },
      { name: 'orders.dlq', partitions: 1 },
    ]),
  );
  afterAll(async () => {
    await Promise.all(subscriptions.map((subscription) => subscription.stop()));
    await bus.close();
  });

  /** Subscribes a group to `topic`; `records` resolves with the first `count` records it sees. */
  async function collect<T>(
    topic: string,
    count: number,
    options: { decode?: (value: unknown) => T; handled?: EventRecord<T>[][] } = {},
  ): Promise<{ records: Promise<EventRecord<T>[]> }> {
    const seen: EventRecord<T>[] = [];
    let done!: (records: EventRecord<T>[]) => void;
    const all = new Promise<EventRecord<T>[]>((resolve) => (done = resolve));
    subscriptions.push(
      await bus.subscribe<T>({
        groupId: `${topic}-reader`,
        topics: [topic],
        ...(options.decode ? { decode: options.decode } : {}),
        handler: async (batch) => {
          options.handled?.push(batch);
          seen.push(...batch);
          if (seen.length >= count) done(seen.slice(0, count));
        },
      }),
    );
    return { records: all };
  }

  it('dead-letters a record that decode rejects at once, logs where it was, and hands the rest decoded', async () => {
    const handled: EventRecord<Order>[][] = [];
    const orders = await collect<Order>('orders', 2, { decode: decodeOrder, handled });
    const deadLetters = await collect<unknown>('orders.dlq', 1);

    await bus.publish([
      { topic: 'orders', key: 'a', value: { n: 1, extra: 'dropped by decode' } },
      { topic: 'orders', key: 'b', value: { n: 'a secret' } },
      { topic: 'orders', key: 'c', value: { n: 3 } },
    ]);

    expect((await orders.records).map((record) => [record.key, record.value])).toEqual([
      ['a', { n: 1 }],
      ['c', { n: 3 }],
    ]);
    expect(handled.flat().map((record) => record.key)).toEqual(['a', 'c']);
    const [letter] = await deadLetters.records;
    expect(letter!.key).toBe('b');
    expect(letter!.value).toEqual({ n: 'a secret' });
    expect(letter!.headers).toMatchObject({
      [DEAD_LETTER_HEADERS.topic]: 'orders',
      [DEAD_LETTER_HEADERS.offset]: '1',
      [DEAD_LETTER_HEADERS.groupId]: 'orders-reader',
      [DEAD_LETTER_HEADERS.attempts]: '0',
      [DEAD_LETTER_HEADERS.error]: 'n: not a number',
    });
    expect(warnings).toEqual([
      {
        message: 'event dead-lettered',
        context: {
          groupId: 'orders-reader',
          topic: 'orders',
          partition: 0,
          offset: '1',
          error: 'n: not a number',
        },
      },
    ]);
  });
});
