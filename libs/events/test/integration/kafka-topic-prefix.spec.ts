import { Kafka, logLevel } from 'kafkajs';
import {
  createEventBus,
  readsConsumerLag,
  silentEventBusLogger,
  type EventBus,
  type EventRecord,
} from '../../src';
import { brokers, pause, unique } from './kafka-env';

/**
 * Two platforms on one Kafka cluster, each with its own KAFKA_TOPIC_PREFIX, using the same topic and
 * consumer-group names: each sees only its own events, under the names it uses, and the broker holds
 * them apart under the prefixes.
 */
describe('platforms sharing a Kafka cluster under their own topic prefixes', () => {
  jest.setTimeout(90_000);

  const topic = unique('usage.recorded');
  const groupId = unique('billing.usage');
  const prefixes = { staging: `${unique('staging')}.`, production: `${unique('production')}.` };
  const buses: Record<keyof typeof prefixes, EventBus> = {
    staging: createEventBus({
      kind: 'kafka',
      brokers,
      clientId: unique('staging'),
      logger: silentEventBusLogger,
      topicPrefix: prefixes.staging,
    }),
    production: createEventBus({
      kind: 'kafka',
      brokers,
      clientId: unique('production'),
      logger: silentEventBusLogger,
      topicPrefix: prefixes.production,
    }),
  };

  afterAll(async () => {
    await Promise.all(Object.values(buses).map((bus) => bus.close()));
  });

  it("delivers each platform's events to its own consumers only, under the names it uses", async () => {
    const seen: Record<keyof typeof prefixes, EventRecord[]> = { staging: [], production: [] };
    for (const name of ['staging', 'production'] as const) {
      await buses[name].ensureTopics([{ name: topic, partitions: 1 }]);
      await buses[name].subscribe({
        groupId,
        topics: [topic],
        handler: async (batch) => void seen[name].push(...batch),
      });
    }

    await buses.staging.publish([{ topic, key: '1', value: { from: 'staging' } }]);
    await buses.production.publish([
      { topic, key: '1', value: { from: 'production' } },
      { topic, key: '2', value: { from: 'production' } },
    ]);
    const deadline = Date.now() + 30_000;
    while ((seen.staging.length < 1 || seen.production.length < 2) && Date.now() < deadline) await pause(50);
    // Anything that crossed over would have arrived by now as well.
    await pause(1_000);

    expect(seen.staging.map((record) => [record.topic, record.value])).toEqual([
      [topic, { from: 'staging' }],
    ]);
    expect(seen.production.map((record) => [record.topic, record.value])).toEqual([
      [topic, { from: 'production' }],
      [topic, { from: 'production' }],
    ]);

    const admin = new Kafka({ clientId: unique('admin'), brokers, logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    try {
      const onBroker = await admin.listTopics();
      expect(onBroker).toEqual(
        expect.arrayContaining([`${prefixes.staging}${topic}`, `${prefixes.production}${topic}`]),
      );
      expect(onBroker).not.toContain(topic);
      const groups = (await admin.listGroups()).groups.map((group) => group.groupId);
      expect(groups).toEqual(
        expect.arrayContaining([`${prefixes.staging}${groupId}`, `${prefixes.production}${groupId}`]),
      );
    } finally {
      await admin.disconnect();
    }

    // Operators' lag views ask by the platform's names too.
    const production = buses.production;
    if (!readsConsumerLag(production)) throw new Error('the prefixed bus reads no consumer lag');
    const lag = await production.consumerLag(groupId, topic);
    expect(lag.map((partition) => partition.topic)).toEqual([topic]);
  });
});
