/**
 * CRC-32C (Castagnoli), the checksum of a Kafka record batch, eight bytes a step (slicing-by-8). kafkajs
 * 2.2.4's own crc32C looks up one table entry per byte; this one reads eight bytes per step from eight
 * tables, the same result (kafka-crc32c.spec.ts compares them). bench/micro/kafka-crc-cost.mjs measures
 * both (bench/ANALYSIS.md, "h115").
 */
const POLYNOMIAL = 0x82f63b78; // reflected 0x1EDC6F41
const TABLES = 8;

/** TABLE[k * 256 + n]: the CRC of byte n followed by k zero bytes. */
const TABLE = (() => {
  const table = new Int32Array(TABLES * 256);
  for (let n = 0; n < 256; n++) {
    let crc = n;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ POLYNOMIAL : crc >>> 1;
    table[n] = crc;
  }
  for (let n = 0; n < 256; n++) {
    for (let k = 1; k < TABLES; k++) {
      const previous = table[(k - 1) * 256 + n];
      table[k * 256 + n] = (previous >>> 8) ^ table[previous & 0xff];
    }
  }
  return table;
})();

/** The CRC-32C of `bytes`, unsigned. */
export function crc32c(bytes: Uint8Array): number {
  let crc = -1;
  let i = 0;
  const end8 = bytes.length - (bytes.length & 7);
  for (; i < end8; i += 8) {
    crc ^= bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24);
    crc =
      TABLE[1792 + (crc & 0xff)] ^
      TABLE[1536 + ((crc >>> 8) & 0xff)] ^
      TABLE[1280 + ((crc >>> 16) & 0xff)] ^
      TABLE[1024 + (crc >>> 24)] ^
      TABLE[768 + bytes[i + 4]] ^
      TABLE[512 + bytes[i + 5]] ^
      TABLE[256 + bytes[i + 6]] ^
      TABLE[bytes[i + 7]];
  }
  for (; i < bytes.length; i++) crc = TABLE[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ -1) >>> 0;
}
