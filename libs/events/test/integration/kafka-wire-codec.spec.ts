import { Kafka, logLevel, type KafkaMessage } from 'kafkajs';
import { KafkaEventBus, partitionForKey, silentEventBusLogger, type OutgoingEvent } from '../../src';
import { decodeKafkajsFetchesDirectly } from '../../src/kafka/kafkajs-fetch-decoding';
import { encodeKafkajsProduceRequestsInOnePass } from '../../src/kafka/kafkajs-produce-encoding';
import { brokers, unique, pause } from './kafka-env';

const PARTITIONS = 3;

/** Events of every shape the publisher sends: multi-byte text, long values, tombstones, no headers. */
function eventsFor(topic: string): OutgoingEvent[] {
  return Array.from({ length: 300 }, (_, i) => ({
    topic,
    key: i % 7 === 0 ? `clé-${i % 11}` : `user-${i % 11}`,
    value:
      i % 50 === 49
        ? null
        : {
            n: i,
            text: i % 5 === 0 ? 'é✓ '.repeat(60 * (i % 3)) : 'plain',
            padding: 'x'.repeat(i % 40 === 0 ? 20_000 : i),
          },
    ...(i % 4 === 0
      ? {}
      : { headers: { 'x-request-id': `req-${i}`, 'x-note': i % 3 === 0 ? 'ünïcode ✓' : '' } }),
  }));
}

const expectedBytes = (event: OutgoingEvent) => ({
  key: Buffer.from(event.key).toString('hex'),
  value: event.value === null ? null : Buffer.from(JSON.stringify(event.value)).toString('hex'),
  headers: Object.fromEntries(
    Object.entries(event.headers ?? {}).map(([name, value]) => [name, Buffer.from(value).toString('hex')]),
  ),
});

const receivedBytes = (message: KafkaMessage) => ({
  key: message.key?.toString('hex'),
  value: message.value === null ? null : message.value.toString('hex'),
  headers: Object.fromEntries(
    Object.entries(message.headers ?? {}).map(([name, value]) => [name, (value as Buffer).toString('hex')]),
  ),
});

describe('KafkaEventBus: produce requests encoded in one pass, fetches decoded directly (kafkajs 2.2.4)', () => {
  jest.setTimeout(90_000);

  it('delivers every record byte for byte, in publish order per partition, at consecutive offsets', async () => {
    expect(encodeKafkajsProduceRequestsInOnePass()).toBe(true);
    expect(decodeKafkajsFetchesDirectly()).toBe(true);
    const publishedFrom = Date.now();
    const topic = unique('produce-encoding');
    const bus = new KafkaEventBus({
      brokers,
      clientId: unique('produce-encoding'),
      logger: silentEventBusLogger,
      lingerMs: 5,
      retry: { initialRetryTime: 100, retries: 5 },
    });
    const kafka = new Kafka({
      clientId: unique('reader'),
      brokers,
      logLevel: logLevel.NOTHING,
    });
    const consumer = kafka.consumer({ groupId: unique('reader') });
    try {
      await bus.ensureTopics([{ name: topic, partitions: PARTITIONS }]);
      const events = eventsFor(topic);
      // Lone publishes (one record a request), then concurrent ones that share requests.
      for (const event of events.slice(0, 20)) await bus.publish([event]);
      await Promise.all(events.slice(20, 200).map((event) => bus.publish([event])));
      await bus.publish(events.slice(200));

      const received = new Map<number, KafkaMessage[]>();
      await consumer.connect();
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ partition, message }) => {
          received.set(partition, [...(received.get(partition) ?? []), message]);
        },
      });
      const deadline = Date.now() + 30_000;
      const count = () => [...received.values()].reduce((sum, messages) => sum + messages.length, 0);
      while (count() < events.length && Date.now() < deadline) await pause(50);

      expect(count()).toBe(events.length);
      for (let partition = 0; partition < PARTITIONS; partition++) {
        const sent = events.filter((event) => partitionForKey(event.key, PARTITIONS) === partition);
        const messages = received.get(partition) ?? [];
        expect(messages.map((message) => message.offset)).toEqual(sent.map((_, i) => String(i)));
        expect(messages.map(receivedBytes)).toEqual(sent.map(expectedBytes));
        for (const { timestamp } of messages) {
          expect(Number(timestamp)).toBeGreaterThanOrEqual(publishedFrom);
          expect(Number(timestamp)).toBeLessThanOrEqual(Date.now());
        }
      }
    } finally {
      await consumer.disconnect();
      await bus.close();
    }
  });
});
