import { Partitioners, type ICustomPartitioner } from 'kafkajs';
import { murmur2 } from '../shared/partitioner';

/** Keys up to this many UTF-16 units are written here to be hashed (3 bytes a unit at most). */
const SCRATCH_KEY_UNITS = 128;
const scratch = Buffer.allocUnsafe(SCRATCH_KEY_UNITS * 3);

function hashOfKey(key: string | Buffer): number {
  if (typeof key !== 'string') return murmur2(key);
  if (key.length > SCRATCH_KEY_UNITS) return murmur2(Buffer.from(key, 'utf8'));
  return murmur2(scratch, scratch.write(key, 0, 'utf8'));
}

/**
 * kafkajs's DefaultPartitioner (the Java client's: murmur2 of the key's UTF-8 bytes, made positive,
 * modulo the partition count), with the hash of libs/events' partitioner. kafkajs's own hashes with
 * its BigInt-backed `Long` (a dozen objects a key) and filters the partition list for every message,
 * whether or not it uses it: ~1.8 KB a usage event in relay's profile (bench/ANALYSIS.md, h122). A
 * message naming its partition, or without a key (round robin), goes to kafkajs's own partitioner.
 */
export const keyHashPartitioner: ICustomPartitioner = () => {
  const kafkajsDefault = Partitioners.DefaultPartitioner();
  return (args) => {
    const { message, partitionMetadata } = args;
    const { key, partition } = message;
    if ((partition !== null && partition !== undefined) || key === null || key === undefined) {
      return kafkajsDefault(args);
    }
    return (hashOfKey(key) & 0x7fffffff) % partitionMetadata.length;
  };
};
