import { KafkaEventBus, silentEventBusLogger, type EventRecord } from '../../src';
import { brokers, unique, pause } from './kafka-env';

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await pause(20);
  }
}

/** A bus whose consumers commit at most every ten minutes unless a subscription says otherwise. */
function busCommittingEveryTenMinutes(): KafkaEventBus {
  return new KafkaEventBus({
    brokers,
    clientId: unique('offset-commits'),
    logger: silentEventBusLogger,
    lingerMs: 1,
    retry: { initialRetryTime: 100, retries: 5 },
    consumer: { heartbeatInterval: 1000, commitIntervalMs: 10 * 60_000 },
  });
}

describe('KafkaEventBus: offset commits under load', () => {
  jest.setTimeout(60_000);
  let bus: KafkaEventBus;
  afterEach(async () => {
    await bus.close();
  });

  it('commits a lone batch at once, lets the batches after it share a later commit, and commits them on stop', async () => {
    // Longer than the test: the batches after the first can only be committed by the stop.
    bus = busCommittingEveryTenMinutes();
    const topic = unique('offset-commits');
    const groupId = unique('g');
    await bus.ensureTopics([{ name: topic, partitions: 1 }]);
    const handled: EventRecord[] = [];
    const subscription = await bus.subscribe({
      groupId,
      topics: [topic],
      handler: async (batch) => void handled.push(...batch),
    });
    const committed = async () => Number((await bus.consumerLag(groupId, topic))[0].committedOffset ?? -1);
    const publishAndWait = async (n: number) => {
      await bus.publish([{ topic, key: 'k', value: { n } }]);
      await waitFor(() => handled.length >= n, `event ${n} handled`);
    };

    await publishAndWait(1);
    // kafkajs fetches the next batch only once this one's handling, its commit included, is over.
    await publishAndWait(2);
    await publishAndWait(3);
    expect(await committed()).toBe(1);

    await subscription.stop();
    expect(await committed()).toBe(3);
  });

  it("commits at a subscription's own interval when it sets one, whatever the consumer's default", async () => {
    bus = busCommittingEveryTenMinutes();
    const topic = unique('offset-commits');
    const groupId = unique('g');
    await bus.ensureTopics([{ name: topic, partitions: 1 }]);
    const handled: EventRecord[] = [];
    await bus.subscribe({
      groupId,
      topics: [topic],
      commitIntervalMs: 0,
      handler: async (batch) => void handled.push(...batch),
    });
    for (const n of [1, 2, 3]) {
      await bus.publish([{ topic, key: 'k', value: { n } }]);
      await waitFor(() => handled.length >= n, `event ${n} handled`);
    }
    // With the consumer's ten minutes, only the first batch would be committed before a stop.
    let offset = -1;
    const deadline = Date.now() + 15_000;
    while (offset < 3 && Date.now() < deadline) {
      offset = Number((await bus.consumerLag(groupId, topic))[0].committedOffset ?? -1);
      if (offset < 3) await pause(50);
    }
    expect(offset).toBe(3);
  });
});
