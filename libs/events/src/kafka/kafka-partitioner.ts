import { Partitioners, type ICustomPartitioner } from 'kafkajs';
import { partitionForKey } from '../shared/partitioner';

/**
 * kafkajs's DefaultPartitioner (the Java client's: murmur2 of the key's UTF-8 bytes, made positive,
 * modulo the partition count), through libs/events' partitionForKey. kafkajs's own hashes with
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
    return partitionForKey(key, partitionMetadata.length);
  };
};
