import { Partitioners } from 'kafkajs';
import { partitionMetadata } from '../../test/support/partition-metadata';
import { partitionForKey } from './partitioner';

describe('partitionForKey', () => {
  it('matches the partition kafkajs (and the Java client) picks for the same key', () => {
    const kafkaPartitioner = Partitioners.DefaultPartitioner();
    for (const partitions of [1, 2, 3, 7, 12]) {
      const metadata = partitionMetadata(partitions);
      for (const key of ['', 'a', 'ab', 'abc', 'abcd', 'user-42', 'ключ-юникод', 'sk-' + 'x'.repeat(61)]) {
        const expected = kafkaPartitioner({
          topic: 't',
          partitionMetadata: metadata,
          message: { key, value: null },
        });
        expect(partitionForKey(key, partitions)).toBe(expected);
      }
    }
  });

  it('is stable and spreads many keys over every partition', () => {
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 4000; i++) counts[partitionForKey(`user-${i}`, 4)]++;
    expect(partitionForKey('user-1', 4)).toBe(partitionForKey('user-1', 4));
    for (const count of counts) expect(count).toBeGreaterThan(800);
  });

  it('rejects a partition count that is not a positive integer', () => {
    expect(() => partitionForKey('k', 0)).toThrow(RangeError);
    expect(() => partitionForKey('k', 1.5)).toThrow(RangeError);
  });
});
