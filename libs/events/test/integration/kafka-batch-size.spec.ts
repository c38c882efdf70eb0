import { KafkaEventBus, silentEventBusLogger, type EventRecord } from '../../src';
import { brokers, unique, pause } from './kafka-env';

const MIB = 1024 * 1024;
/** A value of about 1 KiB. */
const PADDING = 'x'.repeat(1000);

describe('a batching subscription on Kafka with a backlog waiting', () => {
  jest.setTimeout(60_000);

  it("gets batches larger than kafkajs's 1 MiB per partition, so a backlog is handled in fewer batches", async () => {
    const topic = unique('batch-size');
    const bus = new KafkaEventBus({
      brokers,
      clientId: unique('batch-size'),
      logger: silentEventBusLogger,
      retry: { initialRetryTime: 100, retries: 5 },
      consumer: { heartbeatInterval: 1000, retry: { initialRetryTime: 100, retries: 5 } },
    });
    try {
      await bus.ensureTopics([{ name: topic, partitions: 1 }]);
      // 3 MiB in small produce requests: the broker returns whole record batches, so one larger
      // than the fetch's limit would come back whole and hide the limit.
      const records = 3 * 1024;
      for (let sent = 0; sent < records; sent += 64) {
        await bus.publish(
          Array.from({ length: 64 }, (_, i) => ({
            topic,
            key: 'k',
            value: { n: sent + i, padding: PADDING },
          })),
        );
      }
      const batches: EventRecord[][] = [];
      await bus.subscribe({
        groupId: unique('g'),
        topics: [topic],
        batching: { minBytes: 64 * 1024, maxWaitMs: 100 },
        handler: async (batch) => void batches.push(batch),
      });
      const deadline = Date.now() + 30_000;
      while (batches.flat().length < records && Date.now() < deadline) await pause(50);

      expect(batches.flat().length).toBe(records);
      // Over 1 MiB of values in one batch: kafkajs's default per partition would have split it.
      const largest = Math.max(...batches.map((batch) => batch.length));
      expect(largest * (PADDING.length + 20)).toBeGreaterThan(1.5 * MIB);
    } finally {
      await bus.close();
    }
  });
});

describe('one publish larger than the broker takes in one batch', () => {
  jest.setTimeout(60_000);

  it('is sent as several produce requests, every event delivered once and in order', async () => {
    const topic = unique('big-publish');
    const bus = new KafkaEventBus({
      brokers,
      clientId: unique('big-publish'),
      logger: silentEventBusLogger,
      retry: { initialRetryTime: 100, retries: 2 },
      consumer: { heartbeatInterval: 1000, retry: { initialRetryTime: 100, retries: 5 } },
    });
    try {
      await bus.ensureTopics([{ name: topic, partitions: 1 }]);
      // ~2.5 MiB for one partition in one publish(): over the broker's 1 MiB message.max.bytes as one
      // record batch (what a relay's usage sink republishing thousands of events at once sends).
      const records = 2_500;
      await bus.publish(
        Array.from({ length: records }, (_, n) => ({ topic, key: 'k', value: { n, padding: PADDING } })),
      );
      const seen: number[] = [];
      await bus.subscribe({
        groupId: unique('g'),
        topics: [topic],
        batching: { minBytes: 64 * 1024, maxWaitMs: 100 },
        handler: async (batch) => {
          for (const record of batch) seen.push((record.value as { n: number }).n);
        },
      });
      const deadline = Date.now() + 30_000;
      while (seen.length < records && Date.now() < deadline) await pause(50);
      expect(seen).toEqual(Array.from({ length: records }, (_, n) => n));
    } finally {
      await bus.close();
    }
  });
});
