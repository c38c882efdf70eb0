import { DriverException } from '@mikro-orm/core';
import {
  DEAD_LETTER_HEADERS,
  InProcessEventBus,
  silentEventBusLogger,
  type EventBus,
  type EventRecord,
  type SubscribeOptions,
} from '@tollgate/events';
import { z } from 'zod';
import { BusConsumer, type DecodedEvent } from './bus-consumer';

const orderV1 = z.object({ v: z.literal(1), n: z.number().int(), status: z.enum(['open', 'paid']) });
type Order = z.infer<typeof orderV1>;

class OrdersConsumer extends BusConsumer<Order | null> {
  readonly handled: DecodedEvent<Order | null>[][] = [];

  constructor(
    bus: EventBus,
    private readonly expected: number,
    private readonly done: () => void,
  ) {
    super(bus, { groupId: 'orders-consumer', topics: ['orders'], schema: orderV1.nullable() });
  }

  async handle(events: DecodedEvent<Order | null>[]): Promise<void> {
    this.handled.push(events);
    if (this.handled.flat().length >= this.expected) this.done();
  }
}

class FailureRuleConsumer extends BusConsumer<Order> {
  constructor(bus: EventBus, isTransient?: (error: unknown) => boolean) {
    super(bus, {
      groupId: 'rule',
      topics: ['orders'],
      schema: orderV1,
      ...(isTransient ? { isTransient } : {}),
    });
  }

  async handle(): Promise<void> {}
}

/** The `isTransient` a consumer subscribes with. */
async function subscribedRule(
  isTransient?: (error: unknown) => boolean,
): Promise<(error: unknown) => boolean> {
  let subscribed: SubscribeOptions<unknown> | undefined;
  const bus = {
    subscribe: async (options: SubscribeOptions<unknown>) => {
      subscribed = options;
      return { stop: async () => undefined };
    },
  } as unknown as EventBus;
  await new FailureRuleConsumer(bus, isTransient).onApplicationBootstrap();
  return (error) => subscribed?.isTransient?.(error) ?? false;
}

/** What MikroORM raises for a query while PostgreSQL refuses connections. */
const databaseAway = new DriverException(
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
    code: 'ECONNREFUSED',
    syscall: 'connect',
  }),
);
const bug = new TypeError("Cannot read properties of undefined (reading 'id')");

describe('BusConsumer failure rule', () => {
  it('waits out the infrastructure being away and lets anything else be dead-lettered, by default', async () => {
    const isTransient = await subscribedRule();
    expect(isTransient(databaseAway)).toBe(true);
    expect(
      isTransient(new DriverException(Object.assign(new Error('admin shutdown'), { code: '57P01' }))),
    ).toBe(true);
    expect(isTransient(bug)).toBe(false);
  });

  it("widens with the consumer's own rule and never narrows", async () => {
    expect((await subscribedRule(() => true))(bug)).toBe(true);
    expect((await subscribedRule(() => false))(databaseAway)).toBe(true);
    expect((await subscribedRule((error) => error === bug))(new Error('other'))).toBe(false);
  });
});

describe('BusConsumer', () => {
  const bus = new InProcessEventBus({ logger: silentEventBusLogger });

  beforeAll(() =>
    bus.ensureTopics([
      { name: 'orders', partitions: 1 },
      { name: 'orders.dlq', partitions: 1 },
    ]),
  );
  afterAll(() => bus.close());

  it('dead-letters each malformed record once, with the error but none of its values, and hands the rest to handle typed', async () => {
    const deadLetters: EventRecord[] = [];
    let deadLetteredBoth!: () => void;
    const bothDeadLettered = new Promise<void>((resolve) => (deadLetteredBoth = resolve));
    const dlq = await bus.subscribe({
      groupId: 'dlq-reader',
      topics: ['orders.dlq'],
      handler: async (batch) => {
        deadLetters.push(...batch);
        if (deadLetters.length >= 2) deadLetteredBoth();
      },
    });
    let handledAll!: () => void;
    const allHandled = new Promise<void>((resolve) => (handledAll = resolve));
    const consumer = new OrdersConsumer(bus, 3, handledAll);
    await consumer.onApplicationBootstrap();

    await bus.publish([
      { topic: 'orders', key: '1', value: { v: 1, n: 1, status: 'open' } },
      { topic: 'orders', key: '2', value: { v: 1, n: 'private text', status: 'open' } },
      { topic: 'orders', key: '3', value: { v: 1, n: 3, status: 'private text' } },
      { topic: 'orders', key: '4', value: null },
      { topic: 'orders', key: '5', value: { v: 1, n: 5, status: 'paid' } },
    ]);
    await Promise.all([allHandled, bothDeadLettered]);
    await consumer.onModuleDestroy();
    await dlq.stop();

    const handled = consumer.handled.flat();
    expect(handled.map((event) => [event.key, event.value])).toEqual([
      ['1', { v: 1, n: 1, status: 'open' }],
      ['4', null],
      ['5', { v: 1, n: 5, status: 'paid' }],
    ]);
    expect(handled.map((event) => [event.topic, event.offset])).toEqual([
      ['orders', '0'],
      ['orders', '3'],
      ['orders', '4'],
    ]);
    const paid: number[] = handled.flatMap((event) =>
      event.value?.status === 'paid' ? [event.value.n] : [],
    );
    expect(paid).toEqual([5]);

    expect(deadLetters.map((letter) => [letter.key, letter.headers[DEAD_LETTER_HEADERS.attempts]])).toEqual([
      ['2', '0'],
      ['3', '0'],
    ]);
    const errors = deadLetters.map((letter) => letter.headers[DEAD_LETTER_HEADERS.error]);
    expect(errors).toEqual([
      'does not match its schema: n: invalid_type (expected number, got string)',
      'does not match its schema: status: invalid_enum_value',
    ]);
  });
});
