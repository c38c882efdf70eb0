import { Partitioners } from 'kafkajs';
import { partitionMetadata as metadata } from '../../test/support/partition-metadata';
import { keyHashPartitioner } from './kafka-partitioner';

describe('keyHashPartitioner', () => {
  it('puts every keyed message on the partition kafkajs`s DefaultPartitioner picks', () => {
    const kafkajs = Partitioners.DefaultPartitioner();
    const ours = keyHashPartitioner();
    const keys: Array<string | Buffer> = [
      '',
      '7',
      '42',
      'abc',
      'abcd',
      '1234567',
      'user-42',
      'ключ-юникод',
      '🔑 emoji',
      'x'.repeat(128),
      'x'.repeat(129),
      'ы'.repeat(200),
      Buffer.from('user-42'),
      Buffer.from([0xff, 0x00, 0x80, 0x7f, 0x01]),
    ];
    for (let i = 0; i < 300; i++) keys.push(String(i * 7919));
    for (const partitions of [1, 2, 3, 7, 12]) {
      const partitionMetadata = metadata(partitions);
      for (const key of keys) {
        const args = { topic: 'usage.recorded', partitionMetadata, message: { key, value: null } };
        expect(ours(args)).toBe(kafkajs(args));
      }
    }
  });

  it('keeps a partition the message names, and spreads keyless messages over the partitions', () => {
    const ours = keyHashPartitioner();
    const partitionMetadata = metadata(3);
    expect(ours({ topic: 't', partitionMetadata, message: { key: 'k', partition: 2, value: null } })).toBe(2);
    const picked = new Set<number>();
    for (let i = 0; i < 6; i++) picked.add(ours({ topic: 't', partitionMetadata, message: { value: null } }));
    expect([...picked].sort()).toEqual([0, 1, 2]);
  });
});
