import { Test } from '@nestjs/testing';
import { TOPICS, type UsageRecorded } from '@tollgate/contracts';
import {
  deadLetterTopic,
  InProcessEventBus,
  silentEventBusLogger,
  type EventBus,
  type EventRecord,
} from '@tollgate/events';
import { EventBusTransport } from '@tollgate/runtime';
import { aUsageRecordedWithCacheWrites, transportSubscriptionsOf } from '@tollgate/testing';
import { randomUUID } from 'node:crypto';
import { settledUsageOfEvent, USAGE_GROUP, UsageRecordedConsumer } from './usage-recorded.consumer';
import { UsageSettlementService } from './usage-settlement.service';

const USAGE_RECORDED = TOPICS.usageRecorded.name;

/** UsageRecordedConsumer served by EventBusTransport over `bus`, as billing serves it. */
async function serve(bus: EventBus, settlement: Partial<UsageSettlementService>) {
  const moduleRef = await Test.createTestingModule({
    controllers: [UsageRecordedConsumer],
    providers: [{ provide: UsageSettlementService, useValue: settlement }],
  }).compile();
  const app = moduleRef.createNestMicroservice({ strategy: new EventBusTransport(bus), logger: false });
  await app.listen();
  return app;
}

function aUsageEvent(userId: number, quota: number): UsageRecorded {
  const eventId = randomUUID();
  return {
    v: 1,
    event_id: eventId,
    request_id: `req-${eventId}`,
    user_id: userId,
    token_id: 7,
    token_name: 'ci',
    channel_id: 3,
    group: 'default',
    model: 'gpt-4o-mini',
    upstream_model: 'gpt-4o-mini-2024-07-18',
    prompt_tokens: 1200,
    completion_tokens: 300,
    cached_tokens: 200,
    quota,
    price: { input: '0.15', output: '0.6', cached_input: '0.075', group_ratio: '1' },
    latency_ms: 850,
    ttft_ms: 120,
    is_stream: true,
    status: 'success',
    created_at: 1_700_000_000,
  };
}

function withoutPrice({ price: _price, ...rest }: UsageRecorded) {
  return rest;
}

describe('UsageRecordedConsumer', () => {
  it('settles usage.recorded in its own group in batches of up to 4 MiB or a quarter second, commits each batch at once, and retries any failure instead of dead-lettering a charge', async () => {
    const subscribed = await transportSubscriptionsOf(UsageRecordedConsumer, [
      { provide: UsageSettlementService, useValue: {} },
    ]);

    expect(subscribed).toHaveLength(1);
    expect(subscribed[0]).toMatchObject({
      groupId: USAGE_GROUP,
      topics: [USAGE_RECORDED],
      batching: { minBytes: 4 * 1024 * 1024, maxWaitMs: 250 },
      commitIntervalMs: 0,
    });
    const bug = new TypeError("Cannot read properties of undefined (reading 'id')");
    expect(subscribed[0]?.isTransient?.(bug)).toBe(true);
  });

  it('dead-letters a record that fails validation at once and settles the rest of its batch', async () => {
    const bus = new InProcessEventBus({ logger: silentEventBusLogger });
    const dlq = deadLetterTopic(USAGE_RECORDED);
    await bus.ensureTopics([
      { name: USAGE_RECORDED, partitions: 1 },
      { name: dlq, partitions: 1 },
    ]);
    const settledEvents: UsageRecorded[] = [];
    let settledBoth!: () => void;
    const bothSettled = new Promise<void>((resolve) => (settledBoth = resolve));
    const settlement = {
      settle: async (events: UsageRecorded[]) => {
        settledEvents.push(...events);
        if (settledEvents.length >= 2) settledBoth();
        return { settled: events.length };
      },
    };
    const deadLetters: EventRecord[] = [];
    let deadLettered!: () => void;
    const oneDeadLettered = new Promise<void>((resolve) => (deadLettered = resolve));
    const dlqReader = await bus.subscribe({
      groupId: 'dlq-reader',
      topics: [dlq],
      handler: async (batch) => {
        deadLetters.push(...batch);
        deadLettered();
      },
    });
    const app = await serve(bus, settlement);
    const [first, second] = [aUsageEvent(1, 100), aUsageEvent(2, 250)];

    await bus.publish([
      { topic: USAGE_RECORDED, key: '1', value: first },
      { topic: USAGE_RECORDED, key: 'bad', value: { v: 1, event_id: 'nope' } },
      { topic: USAGE_RECORDED, key: '2', value: second },
    ]);
    await Promise.all([bothSettled, oneDeadLettered]);
    await app.close();
    await dlqReader.stop();
    await bus.close();

    expect(settledEvents).toEqual([withoutPrice(first), withoutPrice(second)]);
    expect(deadLetters.map((letter) => letter.key)).toEqual(['bad']);
  });

  it('hands settlement every field it writes, validated, and leaves out the prices it does not read', async () => {
    const event = aUsageEvent(3, 40);
    const priceless = withoutPrice(event);

    expect(settledUsageOfEvent.parse(event)).toEqual(priceless);
    // A served call is charged even when the prices it carries are unreadable: billing does not use them.
    expect(settledUsageOfEvent.parse({ ...event, price: { input: 'free' } })).toEqual(priceless);
    expect(settledUsageOfEvent.safeParse({ ...event, quota: 1.5 }).success).toBe(false);
    expect(settledUsageOfEvent.safeParse({ ...event, created_at: undefined }).success).toBe(false);
  });

  it('settles an event published before cache writes were priced as before, and hands on the writes of one after', () => {
    const before = aUsageEvent(4, 40);
    expect(settledUsageOfEvent.parse(before)).toEqual(withoutPrice(before));
    expect(settledUsageOfEvent.parse(before)).not.toHaveProperty('cache_write_tokens');

    const after = aUsageRecordedWithCacheWrites({ user_id: 4 });
    expect(settledUsageOfEvent.parse(after)).toEqual(withoutPrice(after));
    expect(settledUsageOfEvent.safeParse({ ...after, cache_write_tokens: -1 }).success).toBe(false);
  });
});
