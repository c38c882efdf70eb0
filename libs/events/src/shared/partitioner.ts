/** Keys up to this many UTF-16 units are hashed from one reused buffer (3 bytes a unit at most). */
const SCRATCH_KEY_UNITS = 128;
const scratch = Buffer.allocUnsafe(SCRATCH_KEY_UNITS * 3);

/**
 * Key → partition, the way Kafka's Java client (and kafkajs' DefaultPartitioner) does it:
 * murmur2 of the UTF-8 key, made positive, modulo the partition count. Using the same function
 * in the in-process bus and the Kafka producer keeps a key on the same partition number in both
 * modes. A short string key is written into a reused buffer: no Buffer a message.
 */
export function partitionForKey(key: string | Buffer, partitions: number): number {
  if (!Number.isInteger(partitions) || partitions < 1) {
    throw new RangeError(`partition count must be a positive integer, got ${partitions}`);
  }
  return (hashOfKey(key) & 0x7fffffff) % partitions;
}

function hashOfKey(key: string | Buffer): number {
  if (typeof key !== 'string') return murmur2(key);
  if (key.length > SCRATCH_KEY_UNITS) return murmur2(Buffer.from(key, 'utf8'));
  return murmur2(scratch, scratch.write(key, 0, 'utf8'));
}

const SEED = 0x9747b28c;
const M = 0x5bd1e995;
const R = 24;

/** murmur2 of the first `length` bytes of `data` (all of them by default). */
export function murmur2(data: Uint8Array, length = data.length): number {
  let h = SEED ^ length;
  const whole = length & ~3;
  for (let i = 0; i < whole; i += 4) {
    let k = data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24);
    k = Math.imul(k, M);
    k ^= k >>> R;
    k = Math.imul(k, M);
    h = Math.imul(h, M) ^ k;
  }
  const rest = length & 3;
  if (rest === 3) h ^= data[whole + 2] << 16;
  if (rest >= 2) h ^= data[whole + 1] << 8;
  if (rest >= 1) {
    h ^= data[whole];
    h = Math.imul(h, M);
  }
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h;
}
