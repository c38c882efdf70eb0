import { Kafka, logLevel } from 'kafkajs';
import { KafkaEventBus, silentEventBusLogger, type EventRecord, type KafkaConsumerTuning } from '../../src';
import { paceIdleFetches } from '../../src/kafka/kafkajs-fetch-control';
import { brokers, unique, pause } from './kafka-env';

/** Idle fetches wait this long: far longer than any stop here may take, far shorter than Jest's timeout. */
const LONG_WAIT_MS = 20_000;

const makeBus = (consumer: KafkaConsumerTuning) =>
  new KafkaEventBus({
    brokers,
    clientId: unique('fetch-control'),
    logger: silentEventBusLogger,
    defaultPartitions: 2,
    lingerMs: 1,
    retry: { initialRetryTime: 100, retries: 5 },
    consumer: { heartbeatInterval: 1000, retry: { initialRetryTime: 100, retries: 5 }, ...consumer },
  });

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await pause(20);
  }
}

/**
 * Whether `stopping` settles within half the fetch wait: an idle fetch begun at most a second before
 * would have kept kafkajs's own stop waiting for nearly all of it.
 */
async function settlesWellBeforeTheFetchWait(stopping: Promise<void>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const fetchWaitOver = new Promise<false>(
    (resolve) => (timer = setTimeout(() => resolve(false), LONG_WAIT_MS / 2)),
  );
  const outcome = await Promise.race([stopping.then(() => true), fetchWaitOver]);
  clearTimeout(timer);
  return outcome;
}

describe('KafkaEventBus: stopping a consumer whose fetch waits on the broker', () => {
  jest.setTimeout(60_000);
  const buses: KafkaEventBus[] = [];
  const aBus = (consumer: KafkaConsumerTuning) => {
    const bus = makeBus(consumer);
    buses.push(bus);
    return bus;
  };
  afterEach(async () => {
    await Promise.all(buses.splice(0).map((bus) => bus.close()));
  });

  it.each([
    ['a subscription', undefined],
    ['a batching subscription', { minBytes: 64 * 1024, maxWaitMs: 100 }],
  ])(
    'stops %s without waiting out its idle fetch, with what it handled committed and nothing lost',
    async (_, batching) => {
      const topic = unique('fetch-control');
      const groupId = unique('g');
      const tuning = { sessionTimeout: 3 * LONG_WAIT_MS, maxWaitTimeInMs: LONG_WAIT_MS };
      const bus = aBus(tuning);
      await bus.ensureTopics([{ name: topic, partitions: 2 }]);
      const first: EventRecord[] = [];
      const subscription = await bus.subscribe({
        groupId,
        topics: [topic],
        ...(batching ? { batching } : {}),
        handler: async (batch) => void first.push(...batch),
      });
      await bus.publish(['a', 'b', 'c'].map((key) => ({ topic, key, value: { key } })));
      await waitFor(() => first.length === 3, 'the first three records');
      // Each partition's fetch now waits on the broker for records that do not come.
      await pause(500);

      expect(await settlesWellBeforeTheFetchWait(subscription.stop())).toBe(true);
      const lag = await bus.consumerLag(groupId, topic);
      expect(lag.reduce((sum, partition) => sum + partition.lag, 0)).toBe(0);

      await bus.publish([{ topic, key: 'd', value: { key: 'd' } }]);
      const next: EventRecord[] = [];
      await aBus(tuning).subscribe({
        groupId,
        topics: [topic],
        handler: async (batch) => void next.push(...batch),
      });
      await waitFor(() => next.length === 1, 'the record published after the stop');
      await pause(500);
      expect(next.map((record) => record.key)).toEqual(['d']);
    },
  );

  it('closes a bus whose table reader and subscription both wait on idle fetches', async () => {
    const topic = unique('fetch-control-table');
    const bus = aBus({ sessionTimeout: 3 * LONG_WAIT_MS, maxWaitTimeInMs: LONG_WAIT_MS });
    await bus.ensureTopics([{ name: topic, partitions: 2, compacted: true }]);
    await bus.publish([{ topic, key: 'k', value: { v: 1 } }]);
    const table = await bus.table<{ v: number }>(topic);
    await table.caughtUp();
    await bus.subscribe({ groupId: unique('g'), topics: [topic], handler: async () => undefined });
    await pause(500);

    expect(await settlesWellBeforeTheFetchWait(bus.close())).toBe(true);
  });
});

describe('a batching group on Kafka with nothing to read', () => {
  jest.setTimeout(60_000);

  it('waits on the broker for the first record instead of fetching once per batching window', async () => {
    const topic = unique('fetch-control-paced');
    const groupId = unique('g');
    const bus = makeBus({});
    const kafka = new Kafka({
      brokers,
      clientId: unique('paced'),
      logLevel: logLevel.NOTHING,
    });
    // A batching window of 100 ms: ten fetches a second while idle, unless the group is paced.
    const consumer = kafka.consumer({
      groupId,
      minBytes: 64 * 1024,
      maxWaitTimeInMs: 100,
      sessionTimeout: 60_000,
    });
    const unpace = paceIdleFetches(groupId, { idleWaitMs: LONG_WAIT_MS });
    try {
      await bus.ensureTopics([{ name: topic, partitions: 1 }]);
      let fetches = 0;
      consumer.on(consumer.events.FETCH, () => void (fetches += 1));
      const joined = new Promise((resolve) => consumer.on(consumer.events.GROUP_JOIN, resolve));
      const received: string[] = [];
      await consumer.connect();
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ message }) => void received.push(message.key?.toString() ?? ''),
      });
      await joined;
      await pause(2000);
      const fetchesWhileIdle = fetches;
      await bus.publish([{ topic, key: 'first', value: {} }]);
      await waitFor(() => received.length === 1, 'the first record after the idle spell');

      // Unpaced, the two seconds hold about twenty fetches; paced, the first one is still waiting.
      expect(fetchesWhileIdle).toBeLessThanOrEqual(2);
      expect(received).toEqual(['first']);
    } finally {
      await consumer.disconnect();
      unpace();
      await bus.close();
    }
  });
});
