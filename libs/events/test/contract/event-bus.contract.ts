import { randomBytes } from 'node:crypto';
import {
  DEAD_LETTER_HEADERS,
  deadLetterTopic,
  type ConsumerLagReader,
  type EventBus,
  type EventRecord,
  type SubscribeOptions,
  type Subscription,
} from '../../src';

export interface EventBusContractOptions {
  /**
   * Every bus from `makeBus` opens the same backing store (a Kafka cluster, a data dir), so a
   * closed bus followed by a new one is a restart. Without it only one bus is used per test.
   */
  restartable?: boolean;
  /** How long to wait for a delivery before failing (default 10 s). */
  deliveryTimeoutMs?: number;
}

/** Every adapter is an event bus that can also report consumer lag. */
export type ContractBus = EventBus & ConsumerLagReader;

/** Records what a handler receives and lets a test wait for it. */
class Inbox<T = unknown> {
  readonly records: EventRecord<T>[] = [];
  readonly batches: EventRecord<T>[][] = [];

  constructor(private readonly timeoutMs: number) {}

  readonly handler = async (batch: EventRecord<T>[]): Promise<void> => {
    this.batches.push(batch);
    this.records.push(...batch);
  };

  keys(): string[] {
    return this.records.map((record) => record.key);
  }

  async waitForCount(count: number): Promise<EventRecord<T>[]> {
    await waitUntil(
      () => this.records.length >= count,
      this.timeoutMs,
      () => `${this.records.length}/${count} records`,
    );
    return this.records;
  }
}

async function waitUntil(condition: () => boolean, timeoutMs: number, progress: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting (${progress()})`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The behaviour every EventBus adapter must show. Topic and group names are unique per run, so
 * reruns against a long-lived broker do not see each other's data.
 */
export function describeEventBusContract(
  name: string,
  makeBus: () => ContractBus | Promise<ContractBus>,
  options: EventBusContractOptions = {},
): void {
  const timeoutMs = options.deliveryTimeoutMs ?? 10_000;
  const runId = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  let counter = 0;
  const unique = (label: string) => `contract.${runId}.${++counter}.${label}`;

  describe(`${name} (event bus contract)`, () => {
    jest.setTimeout(timeoutMs * 3);
    const open: ContractBus[] = [];
    const subscriptions: Subscription[] = [];

    async function bus(): Promise<ContractBus> {
      const created = await makeBus();
      open.push(created);
      return created;
    }

    async function subscribe<T>(
      target: EventBus,
      subscribeOptions: SubscribeOptions<T>,
    ): Promise<Subscription> {
      const subscription = await target.subscribe(subscribeOptions);
      subscriptions.push(subscription);
      return subscription;
    }

    async function closeAll(): Promise<void> {
      await Promise.all(subscriptions.splice(0).map((subscription) => subscription.stop()));
      await Promise.all(open.splice(0).map((target) => target.close()));
    }

    afterEach(closeAll);

    const inbox = <T = unknown>() => new Inbox<T>(timeoutMs);

    it('delivers a published event with its key, value and headers', async () => {
      const b = await bus();
      const topic = unique('round-trip');
      await b.ensureTopics([{ name: topic, partitions: 2 }]);
      const received = inbox();
      await subscribe(b, { groupId: unique('g'), topics: [topic], handler: received.handler });
      const before = Date.now();
      await b.publish([
        { topic, key: 'user-1', value: { amount: 5, model: 'gpt-4o' }, headers: { 'x-request-id': 'r-1' } },
      ]);
      const [record] = await received.waitForCount(1);
      expect(record).toMatchObject({
        topic,
        key: 'user-1',
        value: { amount: 5, model: 'gpt-4o' },
        headers: { 'x-request-id': 'r-1' },
      });
      expect([0, 1]).toContain(record.partition);
      expect(record.offset).toMatch(/^\d+$/);
      expect(record.timestamp).toBeGreaterThanOrEqual(before - 5_000);
    });

    it("reports a group's lag per partition: everything before it consumes, nothing once it has committed", async () => {
      const b = await bus();
      const topic = unique('lag');
      await b.ensureTopics([{ name: topic, partitions: 2 }]);
      const groupId = unique('g');
      const keys = Array.from({ length: 7 }, (_, i) => `user-${i}`);
      await b.publish(keys.map((key) => ({ topic, key, value: key })));

      const before = await b.consumerLag(groupId, topic);
      expect(before.map((entry) => entry.partition)).toEqual([0, 1]);
      expect(before.every((entry) => entry.committedOffset === null && entry.lag === entry.endOffset)).toBe(
        true,
      );
      expect(before.reduce((sum, entry) => sum + entry.lag, 0)).toBe(keys.length);

      const received = inbox();
      await subscribe(b, { groupId, topics: [topic], handler: received.handler });
      await received.waitForCount(keys.length);
      // Offsets are committed after the handler resolves, so the lag reaches 0 a moment after delivery.
      let after = await b.consumerLag(groupId, topic);
      const deadline = Date.now() + timeoutMs;
      while (after.some((entry) => entry.lag > 0) && Date.now() < deadline) {
        await pause(100);
        after = await b.consumerLag(groupId, topic);
      }
      expect(after).toEqual(before.map((entry) => ({ ...entry, committedOffset: entry.endOffset, lag: 0 })));
      await expect(b.consumerLag(groupId, unique('missing'))).rejects.toThrow();
    });

    it('gives every consumer group every event', async () => {
      const b = await bus();
      const topic = unique('two-groups');
      await b.ensureTopics([{ name: topic, partitions: 2 }]);
      const first = inbox();
      const second = inbox();
      await subscribe(b, { groupId: unique('g1'), topics: [topic], handler: first.handler });
      await subscribe(b, { groupId: unique('g2'), topics: [topic], handler: second.handler });
      await b.publish(Array.from({ length: 6 }, (_, i) => ({ topic, key: `k${i}`, value: i })));
      await first.waitForCount(6);
      await second.waitForCount(6);
      expect(first.keys().sort()).toEqual(second.keys().sort());
    });

    it('splits the partitions between two members of one group without duplicates', async () => {
      const b = await bus();
      const topic = unique('split');
      await b.ensureTopics([{ name: topic, partitions: 2 }]);
      const groupId = unique('g');
      const a = inbox();
      const c = inbox();
      await subscribe(b, { groupId, topics: [topic], handler: a.handler });
      await subscribe(b, { groupId, topics: [topic], handler: c.handler });
      const keys = Array.from({ length: 20 }, (_, i) => `user-${i}`);
      await b.publish(keys.map((key) => ({ topic, key, value: key })));
      await waitUntil(
        () => a.records.length + c.records.length >= keys.length,
        timeoutMs,
        () => 'both members',
      );
      await pause(300);
      expect([...a.keys(), ...c.keys()].sort()).toEqual([...keys].sort());
      expect(a.records.length).toBeGreaterThan(0);
      expect(c.records.length).toBeGreaterThan(0);
      const partitionsOf = (box: Inbox) => new Set(box.records.map((record) => record.partition));
      for (const partition of partitionsOf(a)) expect(partitionsOf(c).has(partition)).toBe(false);
    });

    it('delivers every one of many concurrent publishes exactly once', async () => {
      const b = await bus();
      const topic = unique('concurrent');
      await b.ensureTopics([{ name: topic, partitions: 2 }]);
      const received = inbox();
      await subscribe(b, { groupId: unique('g'), topics: [topic], handler: received.handler });
      const values = Array.from({ length: 300 }, (_, i) => i);
      await Promise.all(values.map((i) => b.publish([{ topic, key: `user-${i % 7}`, value: i }])));
      await received.waitForCount(values.length);
      await pause(200);
      expect(received.records.map((record) => record.value as number).sort((x, y) => x - y)).toEqual(values);
    });

    it('starts a new group at the end of the topic when fromBeginning is false', async () => {
      const b = await bus();
      const topic = unique('from-end');
      await b.ensureTopics([{ name: topic, partitions: 1 }]);
      await b.publish([{ topic, key: 'k', value: 'old' }]);
      const received = inbox();
      await subscribe(b, {
        groupId: unique('g'),
        topics: [topic],
        fromBeginning: false,
        handler: received.handler,
      });
      await b.publish([{ topic, key: 'k', value: 'new' }]);
      await received.waitForCount(1);
      await pause(200);
      expect(received.records.map((record) => record.value)).toEqual(['new']);
    });

    it('keeps the order of events with the same key', async () => {
      const b = await bus();
      const topic = unique('order');
      await b.ensureTopics([{ name: topic, partitions: 2 }]);
      const received = inbox<{ key: string; seq: number }>();
      await subscribe(b, { groupId: unique('g'), topics: [topic], handler: received.handler });
      const keys = ['a', 'b', 'c'];
      for (let round = 0; round < 5; round++) {
        await b.publish(
          [0, 1, 2, 3].flatMap((step) =>
            keys.map((key) => ({ topic, key, value: { key, seq: round * 4 + step } })),
          ),
        );
      }
      await received.waitForCount(60);
      for (const key of keys) {
        const seqs = received.records
          .filter((r) => r.key === key)
          .map((r) => (r.value as { seq: number }).seq);
        expect(seqs).toEqual(Array.from({ length: 20 }, (_, i) => i));
      }
    });

    it('redelivers a record whose handler threw, and commits only after success', async () => {
      const b = await bus();
      const topic = unique('retry');
      await b.ensureTopics([{ name: topic, partitions: 1 }]);
      const seen: string[] = [];
      let failures = 1;
      const groupId = unique('g');
      const subscription = await subscribe(b, {
        groupId,
        topics: [topic],
        backoff: { initialDelayMs: 20 },
        handler: async (batch) => {
          seen.push(...batch.map((record) => `${record.offset}:${record.value}`));
          if (failures-- > 0) throw new Error('transient failure');
        },
      });
      await b.publish([{ topic, key: 'k', value: 'once' }]);
      await waitUntil(
        () => seen.length >= 2,
        timeoutMs,
        () => seen.join(),
      );
      expect(seen[0]).toBe(seen[1]);
      await subscription.stop();
      // The success was committed: the group's next member starts after it.
      const next = inbox();
      await subscribe(b, { groupId, topics: [topic], handler: next.handler });
      await b.publish([{ topic, key: 'k', value: 'after' }]);
      await next.waitForCount(1);
      await pause(200);
      expect(next.records.map((record) => record.value)).toEqual(['after']);
    });

    it('gives a record to the next member when the first one stops before its handler succeeds', async () => {
      const b = await bus();
      const topic = unique('stop-before-commit');
      await b.ensureTopics([{ name: topic, partitions: 1 }]);
      const groupId = unique('g');
      let attempts = 0;
      const failing = await subscribe(b, {
        groupId,
        topics: [topic],
        maxAttempts: 1000,
        backoff: { initialDelayMs: 50, maxDelayMs: 50 },
        handler: async () => {
          attempts++;
          throw new Error('never succeeds');
        },
      });
      await b.publish([{ topic, key: 'k', value: 'unhandled' }]);
      await waitUntil(
        () => attempts >= 1,
        timeoutMs,
        () => 'first attempt',
      );
      await failing.stop();
      const next = inbox();
      await subscribe(b, { groupId, topics: [topic], handler: next.handler });
      const [record] = await next.waitForCount(1);
      expect(record.value).toBe('unhandled');
    });

    it('dead-letters a record after maxAttempts and moves on to the next', async () => {
      const b = await bus();
      const topic = unique('dlq');
      await b.ensureTopics([
        { name: topic, partitions: 1 },
        { name: deadLetterTopic(topic), partitions: 1 },
      ]);
      // Published before anyone consumes: good and poison records may arrive in one batch.
      await b.publish([
        { topic, key: 'k', value: 'good-1' },
        { topic, key: 'k', value: 'poison', headers: { 'x-request-id': 'r-poison' } },
        { topic, key: 'k', value: 'good-2' },
      ]);
      const handled: unknown[] = [];
      let poisonAttempts = 0;
      const dead = inbox();
      await subscribe(b, {
        groupId: unique('dlq-reader'),
        topics: [deadLetterTopic(topic)],
        handler: dead.handler,
      });
      await subscribe(b, {
        groupId: unique('g'),
        topics: [topic],
        maxAttempts: 3,
        backoff: { initialDelayMs: 10, maxDelayMs: 40 },
        handler: async (batch) => {
          if (batch.some((record) => record.value === 'poison')) {
            poisonAttempts++;
            throw new Error('cannot handle poison');
          }
          handled.push(...batch.map((record) => record.value));
        },
      });
      const [letter] = await dead.waitForCount(1);
      await waitUntil(
        () => handled.length >= 2,
        timeoutMs,
        () => `handled ${handled.join()}`,
      );
      expect(handled).toEqual(['good-1', 'good-2']);
      expect(poisonAttempts).toBeGreaterThanOrEqual(3);
      expect(letter.key).toBe('k');
      expect(letter.value).toBe('poison');
      expect(letter.headers).toMatchObject({
        'x-request-id': 'r-poison',
        [DEAD_LETTER_HEADERS.topic]: topic,
        [DEAD_LETTER_HEADERS.error]: 'cannot handle poison',
      });
      expect(Number(letter.headers[DEAD_LETTER_HEADERS.attempts])).toBeGreaterThanOrEqual(3);
      await pause(200);
      expect(dead.records).toHaveLength(1);
    });

    it('dead-letters a record decode rejects at once, whatever isTransient says, and hands the rest of its batch on decoded', async () => {
      const b = await bus();
      const topic = unique('decode');
      await b.ensureTopics([
        { name: topic, partitions: 1 },
        { name: deadLetterTopic(topic), partitions: 1 },
      ]);
      // Published before anyone consumes: the rejected record may arrive in one batch with the others.
      await b.publish([
        { topic, key: 'k', value: { n: 1 } },
        { topic, key: 'k', value: { n: 'two' }, headers: { 'x-request-id': 'r-bad' } },
        { topic, key: 'k', value: { n: 3 } },
      ]);
      const dead = inbox();
      await subscribe(b, {
        groupId: unique('dlq-reader'),
        topics: [deadLetterTopic(topic)],
        handler: dead.handler,
      });
      const decoded = inbox<number>();
      const rejected: unknown[] = [];
      await subscribe<number>(b, {
        groupId: unique('g'),
        topics: [topic],
        maxAttempts: 3,
        isTransient: () => true,
        decode: (value) => {
          const n = (value as { n?: unknown }).n;
          if (typeof n !== 'number') {
            rejected.push(value);
            throw new Error('n is not a number');
          }
          return n;
        },
        handler: decoded.handler,
      });
      const [letter] = await dead.waitForCount(1);
      await decoded.waitForCount(2);
      expect(decoded.records.map((record) => [record.value, record.offset])).toEqual([
        [1, '0'],
        [3, '2'],
      ]);
      expect(letter.value).toEqual({ n: 'two' });
      expect(letter.headers).toMatchObject({
        'x-request-id': 'r-bad',
        [DEAD_LETTER_HEADERS.topic]: topic,
        [DEAD_LETTER_HEADERS.offset]: '1',
        [DEAD_LETTER_HEADERS.attempts]: '0',
        [DEAD_LETTER_HEADERS.error]: 'n is not a number',
      });
      await pause(200);
      expect(dead.records).toHaveLength(1);
      expect(rejected).toEqual([{ n: 'two' }]);
    });

    it('dead-letters a lone failing record after exactly maxAttempts calls', async () => {
      const b = await bus();
      const topic = unique('dlq-exact');
      await b.ensureTopics([
        { name: topic, partitions: 1 },
        { name: deadLetterTopic(topic), partitions: 1 },
      ]);
      const dead = inbox();
      await subscribe(b, {
        groupId: unique('dlq-reader'),
        topics: [deadLetterTopic(topic)],
        handler: dead.handler,
      });
      let calls = 0;
      await subscribe(b, {
        groupId: unique('g'),
        topics: [topic],
        maxAttempts: 3,
        backoff: { initialDelayMs: 10 },
        handler: async () => {
          calls++;
          throw new Error('always fails');
        },
      });
      await b.publish([{ topic, key: 'k', value: 'lonely' }]);
      const [letter] = await dead.waitForCount(1);
      expect(calls).toBe(3);
      expect(letter.headers[DEAD_LETTER_HEADERS.attempts]).toBe('3');
    });

    it('reads a compacted topic as a table of the latest value per key, tombstones deleting', async () => {
      const b = await bus();
      const topic = unique('table');
      await b.ensureTopics([{ name: topic, compacted: true, partitions: 2 }]);
      await b.publish([
        { topic, key: 'a', value: { price: 1 } },
        { topic, key: 'b', value: { price: 1 } },
        { topic, key: 'a', value: { price: 2 } },
        { topic, key: 'c', value: { price: 1 } },
        { topic, key: 'b', value: null },
      ]);
      const table = await b.table<{ price: number }>(topic);
      await withTimeout(table.caughtUp(), timeoutMs, 'caughtUp on a pre-filled topic');
      expect(table.isCaughtUp()).toBe(true);
      expect(Object.fromEntries(table.entries())).toEqual({ a: { price: 2 }, c: { price: 1 } });
      expect(table.size).toBe(2);
      expect(table.get('b')).toBeUndefined();
    });

    it('is caught up at once on an empty compacted topic', async () => {
      const b = await bus();
      const topic = unique('empty-table');
      await b.ensureTopics([{ name: topic, compacted: true, partitions: 2 }]);
      const table = await b.table(topic);
      await withTimeout(table.caughtUp(), timeoutMs, 'caughtUp on an empty topic');
      expect(table.size).toBe(0);
    });

    it('applies new events after catching up, decoding them and telling onChange listeners', async () => {
      const b = await bus();
      const topic = unique('live-table');
      await b.ensureTopics([{ name: topic, compacted: true, partitions: 2 }]);
      await b.publish([{ topic, key: 'old', value: { n: 1 } }]);
      const table = await b.table(topic, (value) => (value as { n: number }).n * 10);
      await withTimeout(table.caughtUp(), timeoutMs, 'caughtUp');
      const changes: Array<[string, number | undefined]> = [];
      table.onChange((key, value) => changes.push([key, value]));
      await b.publish([{ topic, key: 'x', value: { n: 2 } }]);
      await b.publish([{ topic, key: 'x', value: null }]);
      await waitUntil(
        () => changes.length >= 2,
        timeoutMs,
        () => JSON.stringify(changes),
      );
      expect(changes).toEqual([
        ['x', 20],
        ['x', undefined],
      ]);
      expect(table.get('old')).toBe(10);
      expect(table.get('x')).toBeUndefined();
    });

    it('serves two tables opened together and stops one without the other', async () => {
      const b = await bus();
      const prices = unique('prices');
      const keys = unique('keys');
      await b.ensureTopics([
        { name: prices, compacted: true, partitions: 1 },
        { name: keys, compacted: true, partitions: 1 },
      ]);
      await b.publish([
        { topic: prices, key: 'gpt', value: 1 },
        { topic: keys, key: 'sk-1', value: 'user-1' },
      ]);
      const priceTable = await b.table<number>(prices);
      const keyTable = await b.table<string>(keys);
      await withTimeout(Promise.all([priceTable.caughtUp(), keyTable.caughtUp()]), timeoutMs, 'both tables');
      expect(priceTable.get('gpt')).toBe(1);
      expect(keyTable.get('sk-1')).toBe('user-1');
      await priceTable.stop();
      await b.publish([{ topic: keys, key: 'sk-2', value: 'user-2' }]);
      await waitUntil(
        () => keyTable.get('sk-2') === 'user-2',
        timeoutMs,
        () => 'second key',
      );
    });

    if (options.restartable) {
      it('after a restart, rebuilds tables and resumes groups from their committed offsets', async () => {
        const topic = unique('restart');
        const prices = unique('restart-prices');
        const groupId = unique('g');
        const first = await bus();
        await first.ensureTopics([
          { name: topic, partitions: 2 },
          { name: prices, compacted: true, partitions: 2 },
        ]);
        await first.publish([
          ...['e1', 'e2', 'e3'].map((value) => ({ topic, key: value, value })),
          { topic: prices, key: 'gpt', value: 1 },
          { topic: prices, key: 'claude', value: 3 },
          { topic: prices, key: 'gpt', value: 2 },
          { topic: prices, key: 'claude', value: null },
        ]);
        const handled = inbox();
        const subscription = await subscribe(first, { groupId, topics: [topic], handler: handled.handler });
        await handled.waitForCount(3);
        await subscription.stop();
        await first.publish([{ topic, key: 'e4', value: 'e4' }]);
        await closeAll();

        const second = await bus();
        const table = await second.table<number>(prices);
        await withTimeout(table.caughtUp(), timeoutMs, 'table after restart');
        expect(Object.fromEntries(table.entries())).toEqual({ gpt: 2 });
        const resumed = inbox();
        await subscribe(second, { groupId, topics: [topic], handler: resumed.handler });
        await resumed.waitForCount(1);
        await pause(300);
        expect(resumed.records.map((record) => record.value)).toEqual(['e4']);
      });
    }
  });
}

async function withTimeout<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms: ${what}`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
