import { Partitioners, type Message } from 'kafkajs';
import { partitionMetadata } from '../../test/support/partition-metadata';
import { groupKafkajsMessagesInOnePass, groupMessagesPerPartition } from './kafkajs-partition-grouping';

/* eslint-disable @typescript-eslint/no-require-imports -- kafkajs's own grouping, to compare with */
const kafkajsGrouping =
  require('kafkajs/src/producer/groupMessagesPerPartition') as typeof groupMessagesPerPartition;
/* eslint-enable @typescript-eslint/no-require-imports */

/** Partition 1 without a leader: kafkajs's default partitioner skips it for keyless messages. */
const metadata = (partitions: number) => partitionMetadata(partitions, (id) => (id === 1 ? -1 : 0));

describe('groupMessagesPerPartition', () => {
  it('groups exactly as kafkajs 2.2.4 does: the same partitions, each list in message order', () => {
    expect(kafkajsGrouping).not.toBe(groupMessagesPerPartition); // Jest's registry: kafkajs's own
    const messages: Message[] = Array.from({ length: 500 }, (_, i) => ({
      key: i % 7 === 0 ? null : `user-${i % 41}`,
      value: `v${i}`,
      ...(i % 50 === 3 ? { partition: 4 } : {}),
    }));
    for (const partitions of [1, 3, 12]) {
      // A round-robin partitioner counts its calls: both must call it once a message, in order.
      const args = (partitioner: ReturnType<typeof Partitioners.DefaultPartitioner>) => ({
        topic: 'usage.recorded',
        partitionMetadata: metadata(partitions),
        messages,
        partitioner,
      });
      const counter = { value: 0 };
      const roundRobin = () => counter.value++ % partitions;
      const ours = groupMessagesPerPartition(args(roundRobin));
      counter.value = 0;
      const theirs = kafkajsGrouping(args(roundRobin));
      expect(ours).toEqual(theirs);
      expect(Object.keys(ours)).toEqual(Object.keys(theirs));
      const keyed = args(Partitioners.DefaultPartitioner());
      const byKey = groupMessagesPerPartition({ ...keyed, messages: messages.filter((m) => m.key !== null) });
      const byKeyTheirs = kafkajsGrouping({ ...keyed, messages: messages.filter((m) => m.key !== null) });
      expect(byKey).toEqual(byKeyTheirs);
    }
    expect(
      groupMessagesPerPartition({ topic: 't', partitionMetadata: [], messages, partitioner: () => 0 }),
    ).toEqual({});
  });
});

describe('groupKafkajsMessagesInOnePass', () => {
  const paths: Record<string, string> = {
    'kafkajs/src/producer/groupMessagesPerPartition': '/k/groupMessagesPerPartition.js',
    'kafkajs/src/producer/sendMessages': '/k/sendMessages.js',
  };
  const resolve = (id: string): string => paths[id] ?? id;
  const loader =
    (cache: Record<string, { exports: unknown } | undefined>, version = '2.2.4') =>
    (id: string): unknown =>
      id === 'kafkajs/package.json' ? { version } : cache[id]?.exports;

  it('puts the one-pass grouping where kafkajs will load its own, before kafkajs is loaded', () => {
    const cache: Record<string, { exports: unknown } | undefined> = {};
    expect(groupKafkajsMessagesInOnePass(cache, resolve, loader(cache))).toBe(true);
    expect(cache['/k/groupMessagesPerPartition.js']?.exports).toBe(groupMessagesPerPartition);
    expect(groupKafkajsMessagesInOnePass(cache, resolve, loader(cache))).toBe(true);
  });

  it('changes nothing once kafkajs`s producer is loaded, or on another kafkajs', () => {
    const loaded: Record<string, { exports: unknown } | undefined> = {
      '/k/sendMessages.js': { exports: {} },
    };
    expect(groupKafkajsMessagesInOnePass(loaded, resolve, loader(loaded))).toBe(false);
    expect(loaded['/k/groupMessagesPerPartition.js']).toBeUndefined();
    const other: Record<string, { exports: unknown } | undefined> = {};
    expect(groupKafkajsMessagesInOnePass(other, resolve, loader(other, '2.3.0'))).toBe(false);
    expect(other).toEqual({});
  });
});
