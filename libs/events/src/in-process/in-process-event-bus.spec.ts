import { DEAD_LETTER_HEADERS, type EventRecord, type Subscription } from '../port/event-bus.port';
import { silentEventBusLogger as silent, type EventBusLogger } from '../shared/logger';
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

describe('InProcessEventBus with a batching subscription', () => {
  const batching = { minBytes: 1024 * 1024, maxWaitMs: 1000 };
  let bus: InProcessEventBus;
  let subscriptions: Subscription[];

  beforeEach(async () => {
    // A publish is appended in the loop's check phase (setImmediate), which is not a clock.
    jest.useFakeTimers({ doNotFake: ['setImmediate'] });
    bus = new InProcessEventBus({ logger: silent });
    subscriptions = [];
    await bus.ensureTopics([{ name: 'usage', partitions: 1 }]);
  });
  afterEach(async () => {
    await Promise.all(subscriptions.map((subscription) => subscription.stop()));
    await bus.close();
    jest.useRealTimers();
  });

  /** Joins `groupId`; every batch its handler gets is kept, as the keys of its records. */
  async function subscribe(groupId: string, options: { batching?: typeof batching } = {}) {
    const batches: string[][] = [];
    const subscription = await bus.subscribe({
      groupId,
      topics: ['usage'],
      ...options,
      handler: async (batch) => void batches.push(batch.map((record) => record.key)),
    });
    subscriptions.push(subscription);
    return { batches, subscription };
  }

  const publish = (key: string) => bus.publish([{ topic: 'usage', key, value: { call: key } }]);
  /** Lets the workers run whatever is due now, the clock standing still. */
  const settle = () => jest.advanceTimersByTimeAsync(0);

  it('hands records published one by one within maxWaitMs to the handler as one batch', async () => {
    const { batches } = await subscribe('billing', { batching });

    for (const key of ['a', 'b', 'c']) {
      await publish(key);
      await jest.advanceTimersByTimeAsync(200);
    }
    await jest.advanceTimersByTimeAsync(1000);

    expect(batches).toEqual([['a', 'b', 'c']]);
  });

  it('delivers a lone record once it has waited maxWaitMs', async () => {
    const { batches } = await subscribe('billing', { batching });

    await publish('a');
    await jest.advanceTimersByTimeAsync(999);
    expect(batches).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);

    expect(batches).toEqual([['a']]);
  });

  it('delivers without waiting once minBytes of values are waiting', async () => {
    // Each record is its key (1) and {"call":"x"} (12): three of them pass 30 bytes.
    const { batches } = await subscribe('billing', { batching: { minBytes: 30, maxWaitMs: 60_000 } });

    await publish('a');
    await publish('b');
    await settle();
    expect(batches).toEqual([]);
    await publish('c');
    await settle();

    expect(batches).toEqual([['a', 'b', 'c']]);
  });

  it('leaves the records of a linger cut short by stop to the next member of the group', async () => {
    const first = await subscribe('billing', { batching });
    await publish('a');
    await settle();

    await first.subscription.stop();
    const second = await subscribe('billing');
    await settle();

    expect(first.batches).toEqual([]);
    expect(second.batches).toEqual([['a']]);
  });

  it('still delivers at once to a subscription without batching', async () => {
    const { batches } = await subscribe('relay');

    await publish('a');
    await settle();

    expect(batches).toEqual([['a']]);
  });
});

describe('InProcessEventBus.subscribeEncoded', () => {
  const bus = new InProcessEventBus({ logger: silent });
  afterAll(() => bus.close());

  it("hands each value over as the log's JSON text, unparsed, and a tombstone as null", async () => {
    await bus.ensureTopics([{ name: 'prices', partitions: 1, compacted: true }]);
    const seen: EventRecord<string | null>[] = [];
    const subscription = await bus.subscribeEncoded({
      groupId: 'bridge',
      topics: ['prices'],
      handler: async (batch) => void seen.push(...batch),
    });
    await bus.publish([
      { topic: 'prices', key: 'gpt', value: { cents: 3, name: 'gpt' }, headers: { 'x-request-id': 'r1' } },
      { topic: 'prices', key: 'claude', value: null },
    ]);
    for (let i = 0; i < 100 && seen.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    await subscription.stop();

    expect(seen.map((record) => [record.key, record.value])).toEqual([
      ['gpt', '{"cents":3,"name":"gpt"}'],
      ['claude', null],
    ]);
    expect(seen[0]!.headers).toEqual({ 'x-request-id': 'r1' });
  });
});

describe('InProcessEventBus.publish', () => {
  it('appends in the check phase of the loop: a reply queued before it in this turn goes first', async () => {
    const bus = new InProcessEventBus({ logger: silent });
    await bus.ensureTopics([{ name: 'usage', partitions: 1 }]);
    const endOffset = async () => (await bus.consumerLag('nobody', 'usage'))[0]!.endOffset;
    // As relay's answer to the gateway does (InMemorySocket delivers it in a setImmediate), then the call's usage event.
    const atReply = new Promise<number>((resolve) => setImmediate(() => resolve(endOffset())));
    const published = bus.publish([{ topic: 'usage', key: 'u1', value: 1 }]);

    await expect(atReply).resolves.toBe(0);
    await published;
    await expect(endOffset()).resolves.toBe(1);
    await bus.close();
  });

  it('rejects an unknown topic at once, and appends nothing of that publish', async () => {
    const bus = new InProcessEventBus({ logger: silent });
    await bus.ensureTopics([{ name: 'usage', partitions: 1 }]);
    await expect(
      bus.publish([
        { topic: 'usage', key: 'u1', value: 1 },
        { topic: 'missing', key: 'u2', value: 2 },
      ]),
    ).rejects.toThrow(/ensureTopics/);
    expect((await bus.consumerLag('nobody', 'usage'))[0]?.endOffset).toBe(0);
    await bus.close();
  });

  it('appends what was published before close, before it closes', async () => {
    const bus = new InProcessEventBus({ logger: silent });
    await bus.ensureTopics([{ name: 'usage', partitions: 1 }]);
    const published = bus.publish([{ topic: 'usage', key: 'u1', value: 1 }]);
    await bus.close();
    await expect(published).resolves.toBeUndefined();
  });
});
