import { Controller, Injectable, Param, ParseIntPipe, Post, type Type } from '@nestjs/common';
import { Ctx, EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import {
  DEAD_LETTER_HEADERS,
  InProcessEventBus,
  silentEventBusLogger,
  type EventBus,
  type EventRecord,
  type SubscribeOptions,
} from '@tollgate/events';
import { z } from 'zod';
import { BusEvent, BusEventContext, type DecodedEvent } from './bus-event.decorator';
import { EventBusTransport, type EventBusTransportOptions } from './event-bus-transport';

const orderV1 = z.object({ v: z.literal(1), n: z.number().int(), status: z.enum(['open', 'paid']) });
type Order = z.infer<typeof orderV1>;
const order = (n: number): Order => ({ v: 1, n, status: 'paid' });

/** The service both an HTTP route and a bus handler call; it records each call's order numbers. */
@Injectable()
class Ledger {
  readonly calls: number[][] = [];
  readonly contexts: { topic: string; group: string }[] = [];
  failWith?: Error;
  private waiters: { count: number; resolve: () => void }[] = [];

  async markPaid(orders: number[]): Promise<void> {
    this.calls.push(orders);
    if (this.failWith) throw this.failWith;
    const seen = this.succeeded();
    this.waiters = this.waiters.filter((waiter) => (seen >= waiter.count ? (waiter.resolve(), false) : true));
  }

  /** Resolves once the successful calls have seen `count` orders in all. */
  settled(count: number): Promise<void> {
    if (this.succeeded() >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  private succeeded(): number {
    return this.failWith ? 0 : this.calls.flat().length;
  }
}

const isTransientSaw: unknown[] = [];
/** A failure OrdersController's own rule says passes. */
const ledgerBusy = new Error('the ledger is busy');

@Controller('orders')
class OrdersController {
  constructor(private readonly ledger: Ledger) {}

  @Post(':n/paid')
  markPaid(@Param('n', ParseIntPipe) n: number): Promise<void> {
    return this.ledger.markPaid([n]);
  }

  @BusEvent('orders', {
    group: 'orders.paid',
    schema: orderV1,
    isTransient: (error) => (isTransientSaw.push(error), error === ledgerBusy),
  })
  settle(@Payload() events: DecodedEvent<Order>[], @Ctx() context: BusEventContext): Promise<void> {
    this.ledger.contexts.push({ topic: context.getTopic(), group: context.getGroup() });
    return this.ledger.markPaid(events.map((event) => event.value.n));
  }
}

// Compile-time: a handler's events must be of the schema's type.
class MistypedController {
  // @ts-expect-error the schema gives DecodedEvent<Order>[], not strings
  @BusEvent('orders', { group: 'orders.mistyped', schema: orderV1 })
  async settle(events: DecodedEvent<string>[]): Promise<void> {
    void events;
  }
}
void MistypedController;

/** A service's app as the wiring would build it: HTTP plus the bus transport, started after init. */
async function startService(
  bus: EventBus,
  controllers: Type[] = [OrdersController],
  options?: EventBusTransportOptions,
): Promise<{ app: NestFastifyApplication; ledger: Ledger }> {
  const moduleRef = await Test.createTestingModule({ controllers, providers: [Ledger] }).compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter(), {
    logger: false,
  });
  app.connectMicroservice({ strategy: new EventBusTransport(bus, options) }, { inheritAppConfig: true });
  await app.init();
  await app.startAllMicroservices();
  return { app, ledger: app.get(Ledger) };
}

async function deadLetters(bus: EventBus, count: number): Promise<EventRecord[]> {
  const letters: EventRecord[] = [];
  let done!: () => void;
  const all = new Promise<void>((resolve) => (done = resolve));
  const reader = await bus.subscribe({
    groupId: 'dlq-reader',
    topics: ['orders.dlq'],
    handler: async (batch) => {
      letters.push(...batch);
      if (letters.length >= count) done();
    },
  });
  await all;
  await reader.stop();
  return letters;
}

describe('EventBusTransport', () => {
  let bus: InProcessEventBus;

  beforeEach(async () => {
    bus = new InProcessEventBus({ logger: silentEventBusLogger });
    await bus.ensureTopics([
      { name: 'orders', partitions: 1 },
      { name: 'orders.dlq', partitions: 1 },
    ]);
  });
  afterEach(() => bus.close());

  it('hands a @BusEvent handler each batch of typed events in one call, to the service method the HTTP route calls', async () => {
    await bus.publish([1, 2, 3].map((n) => ({ topic: 'orders', key: String(n), value: order(n) })));
    const { app, ledger } = await startService(bus);
    await ledger.settled(3);
    await app.inject({ method: 'POST', url: '/orders/7/paid' });
    await app.close();

    expect(ledger.calls).toEqual([[1, 2, 3], [7]]);
    expect(ledger.contexts).toEqual([{ topic: 'orders', group: 'orders.paid' }]);
  });

  it('dead-letters a malformed record at once; the handler never sees it and gets the rest', async () => {
    const { app, ledger } = await startService(bus);
    await bus.publish([
      { topic: 'orders', key: '1', value: order(1) },
      { topic: 'orders', key: '2', value: { v: 1, n: 'private text', status: 'paid' } },
      { topic: 'orders', key: '3', value: order(3) },
    ]);
    const [letters] = await Promise.all([deadLetters(bus, 1), ledger.settled(2)]);
    await app.close();

    expect(ledger.calls.flat()).toEqual([1, 3]);
    expect(letters.map((letter) => [letter.key, letter.headers[DEAD_LETTER_HEADERS.attempts]])).toEqual([
      ['2', '0'],
    ]);
    expect(letters[0]?.headers[DEAD_LETTER_HEADERS.error]).toBe(
      'does not match its schema: n: invalid_type (expected number, got string)',
    );
  });

  it("retries a throwing handler per the bus rules, then dead-letters the record with the handler's own error", async () => {
    isTransientSaw.length = 0;
    const { app, ledger } = await startService(bus);
    const failure = new Error('the ledger is away');
    ledger.failWith = failure;
    await bus.publish([{ topic: 'orders', key: '1', value: order(1) }]);
    const letters = await deadLetters(bus, 1);
    await app.close();

    expect(ledger.calls).toEqual([[1], [1], [1], [1], [1]]);
    expect(letters.map((letter) => letter.headers[DEAD_LETTER_HEADERS.attempts])).toEqual(['5']);
    expect(letters[0]?.headers[DEAD_LETTER_HEADERS.error]).toBe('the ledger is away');
    expect(isTransientSaw).toEqual([failure]);
    expect(isTransientSaw[0]).toBe(failure);
  }, 20_000);

  it("waits out the infrastructure being away; the handler's isTransient only widens it", async () => {
    const subscribed: SubscribeOptions<unknown>[] = [];
    const recording: EventBus = {
      ensureTopics: (topics) => bus.ensureTopics(topics),
      publish: (events) => bus.publish(events),
      subscribe: <T>(options: SubscribeOptions<T>) => {
        subscribed.push(options as SubscribeOptions<unknown>);
        return bus.subscribe(options);
      },
      table: (topic, decode) => bus.table(topic, decode),
      close: () => bus.close(),
    };
    const { app } = await startService(recording);
    await app.close();
    const isTransient = subscribed[0]?.isTransient ?? (() => false);

    const databaseAway = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
      code: 'ECONNREFUSED',
    });
    expect(isTransient(databaseAway)).toBe(true);
    expect(isTransient(ledgerBusy)).toBe(true);
    expect(isTransient(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
  });

  it('stops consuming when the app closes: what is published afterwards waits, uncommitted, for the next member', async () => {
    const first = await startService(bus);
    await bus.publish([{ topic: 'orders', key: '1', value: order(1) }]);
    await first.ledger.settled(1);
    await first.app.close();

    await bus.publish([{ topic: 'orders', key: '2', value: order(2) }]);
    const second = await startService(bus);
    await second.ledger.settled(1);
    await second.app.close();

    expect(first.ledger.calls).toEqual([[1]]);
    expect(second.ledger.calls).toEqual([[2]]);
  });

  it('consumes under the group id groupIds gives instead of the declared one, and refuses one nobody declares', async () => {
    const { app, ledger } = await startService(bus, [OrdersController], {
      groupIds: { 'orders.paid': 'orders.paid.run-7' },
    });
    await bus.publish([{ topic: 'orders', key: '1', value: order(1) }]);
    await ledger.settled(1);
    await app.close();
    expect(ledger.contexts).toEqual([{ topic: 'orders', group: 'orders.paid.run-7' }]);

    await expect(startService(bus, [OrdersController], { groupIds: { 'orders.typo': 'x' } })).rejects.toThrow(
      'groupIds renames groups no @BusEvent handler declares: orders.typo',
    );
  });

  it('refuses to start with a handler that is not a @BusEvent', async () => {
    @Controller()
    class PlainEvents {
      @EventPattern('orders')
      async settle(): Promise<void> {}
    }
    @Controller()
    class Requests {
      @MessagePattern('orders')
      async answer(): Promise<void> {}
    }
    await expect(startService(bus, [PlainEvents])).rejects.toThrow(
      'EventBusTransport serves @BusEvent(topic, options) handlers only, not @EventPattern(orders)',
    );
    await expect(startService(bus, [Requests])).rejects.toThrow(
      'EventBusTransport serves @BusEvent(topic, options) handlers only, not @MessagePattern(orders)',
    );
  });
});
