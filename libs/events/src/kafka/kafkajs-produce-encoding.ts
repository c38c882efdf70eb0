import { crc32c } from './kafka-crc32c';

/**
 * kafkajs 2.2.4 (its last release) encodes a produce request in layers, each its own `Encoder` that
 * starts at 512 zeroed bytes and doubles as it fills, and each copied whole into the next: every record
 * and every header has one (with a fresh Buffer per varint), the record batch is built three times
 * over (body, CRC frame, offset frame), then the partition, the topic and the request. A lone usage
 * event took 20 zero-filled backing stores (14.8 KB) and 11 varint Buffers; in requests of 64 events,
 * 12.6 KB of backing stores per event (bench/micro/kafka-codec-cost.mjs --count-buffers).
 *
 * This replaces the `encode` of Produce requests v3-v7 (the record-batch versions, whose bodies are
 * alike) with one that measures the request first and writes it once into a buffer of its exact size:
 * the same bytes (kafkajs-produce-encoding.spec.ts compares them with kafkajs's own). kafkajs then
 * copies that body behind its request header, as before. Only what the publisher sends takes this way:
 * no compression, no message timestamps, keys and values that are strings, Buffers or null, header
 * values that are strings or Buffers (or arrays of them). Anything else goes to kafkajs's own encoder.
 * Requests of 64 usage events: publisher CPU -28 % and heap -45 % per event (bench/ANALYSIS.md, H71).
 * The batches' CRC-32C is kafka-crc32c's, eight bytes a step, not kafkajs's byte by byte (h115).
 */

/** What kafkajs's Produce request builders take (src/protocol/requests/produce/v3/request.js). */
export interface ProduceRequestArgs {
  acks: number;
  timeout: number;
  compression?: number;
  transactionalId?: string | null;
  producerId?: unknown;
  producerEpoch?: number;
  topicData: Array<{
    topic: string;
    partitions: Array<{ partition: number; firstSequence?: number; messages: ProduceMessage[] }>;
  }>;
}

type Bytes = string | Buffer | null | undefined;

export interface ProduceMessage {
  key?: Bytes;
  value?: Bytes;
  headers?: Record<string, Bytes | Bytes[]>;
  timestamp?: unknown;
}

interface EncoderLike {
  buf: Buffer;
  offset: number;
}

interface BuiltRequest {
  request: { encode: () => Promise<EncoderLike> };
  response: unknown;
}

interface Internals {
  Encoder: { prototype: object };
  Long: { fromValue(value: unknown): { value: bigint } };
  crc32C: (buffer: Buffer) => number;
}

export const PATCHED_KAFKAJS_VERSION = '2.2.4';
const COMPRESSION_NONE = 0;
const TRANSACTIONAL_FLAG = 0x10;
const MAGIC_BYTE = 2;
/** PartitionLeaderEpoch .. FirstSequence (int32 int8 int32 int16 int32 int64 int64 int64 int16 int32) + record count. */
const BATCH_HEADER_BYTES = 4 + 1 + 4 + 2 + 4 + 8 + 8 + 8 + 2 + 4 + 4;
/** Where the CRC'd part of a record batch starts, from the start of its PartitionLeaderEpoch. */
const CRC_OFFSET = 4 + 1;
const CRC_COVERED_FROM = 4 + 1 + 4;
const FIRST_PRODUCE_VERSION_WITH_RECORD_BATCHES = 3;
const LAST_KNOWN_PRODUCE_VERSION = 7;

const zigZag = (value: number): number => (value << 1) ^ (value >> 31);

function sizeOfUVarInt(value: number): number {
  let bytes = 1;
  while ((value & 0xffffff80) !== 0) {
    bytes += 1;
    value >>>= 7;
  }
  return bytes;
}

const sizeOfVarInt = (value: number): number => sizeOfUVarInt(zigZag(value));

function writeUVarInt(buf: Buffer, offset: number, value: number): number {
  while ((value & 0xffffff80) !== 0) {
    buf[offset++] = (value & 0x7f) | 0x80;
    value >>>= 7;
  }
  buf[offset++] = value & 0x7f;
  return offset;
}

const writeVarInt = (buf: Buffer, offset: number, value: number): number =>
  writeUVarInt(buf, offset, zigZag(value));

const isBytes = (value: unknown): value is Bytes =>
  value === null || value === undefined || typeof value === 'string' || Buffer.isBuffer(value);

/** Whether a message is one this encoder writes exactly as kafkajs would. */
function isPlain(message: ProduceMessage): boolean {
  if (message.timestamp !== undefined && message.timestamp !== null) return false;
  if (!isBytes(message.key) || !isBytes(message.value)) return false;
  const headers = message.headers ?? {};
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    // kafkajs sizes a header value with Buffer.byteLength, which throws on null: leave those to it.
    if (Array.isArray(value)) {
      if (!value.every((item) => typeof item === 'string' || Buffer.isBuffer(item))) return false;
    } else if (typeof value !== 'string' && !Buffer.isBuffer(value)) return false;
  }
  return true;
}

const byteLength = (value: string | Buffer): number =>
  typeof value === 'string' ? Buffer.byteLength(value, 'utf8') : value.length;

/** varint length (-1 for null) and the bytes; `length` is the byte length, or -1. */
function sizeOfVarIntBytes(length: number): number {
  return length < 0 ? 1 : sizeOfVarInt(length) + length;
}

function writeBytes(buf: Buffer, offset: number, value: string | Buffer, length: number): number {
  if (typeof value === 'string') buf.write(value, offset, length, 'utf8');
  else value.copy(buf, offset);
  return offset + length;
}

/**
 * The request body of Produce v3-v7 in one buffer of its exact size, or undefined when a message is
 * not plain (the caller then uses kafkajs's own encoder). `now` is the batches' timestamp.
 */
export function encodeProduceRequest(
  args: ProduceRequestArgs,
  internals: Pick<Internals, 'Long' | 'crc32C'>,
  now: number,
): Buffer | undefined {
  if ((args.compression ?? COMPRESSION_NONE) !== COMPRESSION_NONE) return undefined;
  const transactionalId = args.transactionalId ?? null;
  const producerId = internals.Long.fromValue(args.producerId ?? -1).value;
  const producerEpoch = args.producerEpoch ?? 0;

  // Pass 1: every length, kept in order for pass 2 (key, value, then each header's name and value).
  const lengths: number[] = [];
  const recordSizes: number[] = [];
  const headerCounts: number[] = [];
  let size = 2 + (transactionalId === null ? 0 : byteLength(transactionalId)) + 2 + 4 + 4;
  for (const { topic, partitions } of args.topicData) {
    size += 2 + byteLength(topic) + 4;
    for (const { messages } of partitions) {
      let batchSize = BATCH_HEADER_BYTES;
      for (let i = 0; i < messages.length; i++) {
        const message = messages[i];
        if (!isPlain(message)) return undefined;
        const keyLength = message.key === null || message.key === undefined ? -1 : byteLength(message.key);
        const valueLength =
          message.value === null || message.value === undefined ? -1 : byteLength(message.value);
        lengths.push(keyLength, valueLength);
        // attributes, timestamp delta (0: one varlong byte), offset delta
        let body = 1 + 1 + sizeOfVarInt(i) + sizeOfVarIntBytes(keyLength) + sizeOfVarIntBytes(valueLength);
        let headerCount = 0;
        let headerBytes = 0;
        const headers = message.headers;
        if (headers) {
          for (const name of Object.keys(headers)) {
            const value = headers[name] as string | Buffer | Array<string | Buffer>;
            const nameLength = byteLength(name);
            // No [value] array for the usual lone value: this runs for every header of every event.
            const count = Array.isArray(value) ? value.length : 1;
            for (let j = 0; j < count; j++) {
              const itemLength = byteLength(Array.isArray(value) ? value[j] : value);
              lengths.push(nameLength, itemLength);
              headerBytes += sizeOfVarInt(nameLength) + nameLength + sizeOfVarInt(itemLength) + itemLength;
            }
            headerCount += count;
          }
        }
        body += sizeOfVarInt(headerCount) + headerBytes;
        recordSizes.push(body);
        headerCounts.push(headerCount);
        batchSize += sizeOfVarInt(body) + body;
      }
      // partition, record set size, first offset, batch length, then the batch
      size += 4 + 4 + 8 + 4 + batchSize;
    }
  }

  // Pass 2: the bytes.
  const buf = Buffer.allocUnsafe(size);
  let offset = 0;
  let lengthAt = 0;
  let recordAt = 0;
  if (transactionalId === null) {
    offset = buf.writeInt16BE(-1, offset);
  } else {
    const length = byteLength(transactionalId);
    offset = buf.writeInt16BE(length, offset);
    offset = writeBytes(buf, offset, transactionalId, length);
  }
  offset = buf.writeInt16BE(args.acks, offset);
  offset = buf.writeInt32BE(args.timeout, offset);
  offset = buf.writeInt32BE(args.topicData.length, offset);
  // kafkajs marks a batch transactional by the id's truthiness (an empty id is written, not marked).
  const attributes = transactionalId ? TRANSACTIONAL_FLAG : 0;
  const timestamp = BigInt.asIntN(64, internals.Long.fromValue(now).value);
  for (const { topic, partitions } of args.topicData) {
    const topicLength = byteLength(topic);
    offset = buf.writeInt16BE(topicLength, offset);
    offset = writeBytes(buf, offset, topic, topicLength);
    offset = buf.writeInt32BE(partitions.length, offset);
    for (const { partition, firstSequence, messages } of partitions) {
      offset = buf.writeInt32BE(partition, offset);
      const recordSetSizeAt = offset;
      offset = buf.writeBigInt64BE(0n, offset + 4); // first offset
      const batchLengthAt = offset;
      const batchStart = offset + 4;
      offset = buf.writeInt32BE(0, batchStart); // partition leader epoch
      offset = buf.writeInt8(MAGIC_BYTE, offset);
      offset += 4; // CRC, written once the rest is
      offset = buf.writeInt16BE(attributes, offset);
      offset = buf.writeInt32BE(messages.length - 1, offset);
      offset = buf.writeBigInt64BE(timestamp, offset);
      offset = buf.writeBigInt64BE(timestamp, offset);
      offset = buf.writeBigInt64BE(BigInt.asIntN(64, producerId), offset);
      offset = buf.writeInt16BE(producerEpoch, offset);
      offset = buf.writeInt32BE(firstSequence ?? 0, offset);
      offset = buf.writeInt32BE(messages.length, offset);
      for (let i = 0; i < messages.length; i++) {
        const { key, value, headers } = messages[i];
        offset = writeVarInt(buf, offset, recordSizes[recordAt++]);
        buf[offset++] = 0; // attributes
        buf[offset++] = 0; // timestamp delta: every message has the batch's timestamp
        offset = writeVarInt(buf, offset, i);
        const keyLength = lengths[lengthAt++];
        offset = writeVarInt(buf, offset, keyLength);
        if (keyLength >= 0) offset = writeBytes(buf, offset, key as string | Buffer, keyLength);
        const valueLength = lengths[lengthAt++];
        offset = writeVarInt(buf, offset, valueLength);
        if (valueLength >= 0) offset = writeBytes(buf, offset, value as string | Buffer, valueLength);
        offset = writeVarInt(buf, offset, headerCounts[recordAt - 1]);
        if (headers) {
          for (const name of Object.keys(headers)) {
            const item = headers[name] as string | Buffer | Array<string | Buffer>;
            const count = Array.isArray(item) ? item.length : 1;
            for (let j = 0; j < count; j++) {
              const nameLength = lengths[lengthAt++];
              offset = writeVarInt(buf, offset, nameLength);
              offset = writeBytes(buf, offset, name, nameLength);
              const valueLength = lengths[lengthAt++];
              offset = writeVarInt(buf, offset, valueLength);
              offset = writeBytes(buf, offset, Array.isArray(item) ? item[j] : item, valueLength);
            }
          }
        }
      }
      const batchLength = offset - batchStart;
      buf.writeInt32BE(batchLength, batchLengthAt);
      buf.writeInt32BE(batchLength + 8 + 4, recordSetSizeAt);
      const crc = internals.crc32C(buf.subarray(batchStart + CRC_COVERED_FROM, offset));
      buf.writeUInt32BE(crc, batchStart + CRC_OFFSET);
    }
  }
  if (offset !== size) throw new Error(`produce request encoded to ${offset} bytes, measured ${size}`);
  return buf;
}

/* eslint-disable @typescript-eslint/no-require-imports -- kafkajs ships no types for its internals */
let installed = false;

/**
 * Installs the encoder for Produce v3-v7 once; returns false (and changes nothing) on a kafkajs other
 * than the patched one.
 */
export function encodeKafkajsProduceRequestsInOnePass(): boolean {
  if (installed) return true;
  const { version } = require('kafkajs/package.json') as { version: string };
  if (version !== PATCHED_KAFKAJS_VERSION) return false;
  const internals: Internals = {
    Encoder: require('kafkajs/src/protocol/encoder') as Internals['Encoder'],
    Long: require('kafkajs/src/utils/long') as Internals['Long'],
    crc32C: crc32c,
  };
  const Produce = require('kafkajs/src/protocol/requests/produce') as {
    versions: string[];
    protocol: (options: { version: number }) => (args: ProduceRequestArgs) => BuiltRequest;
  };
  const protocol = Produce.protocol;
  Produce.protocol = (options) => {
    const build = protocol(options);
    if (
      options.version < FIRST_PRODUCE_VERSION_WITH_RECORD_BATCHES ||
      options.version > LAST_KNOWN_PRODUCE_VERSION
    )
      return build;
    return (args) => {
      const built = build(args);
      const encode = built.request.encode;
      built.request.encode = async () => {
        const buf = encodeProduceRequest(args, internals, Date.now());
        if (!buf) return encode();
        // An Encoder holding exactly these bytes (kafkajs copies it behind the request header).
        const encoder = Object.create(internals.Encoder.prototype) as EncoderLike;
        encoder.buf = buf;
        encoder.offset = buf.length;
        return encoder;
      };
      return built;
    };
  };
  installed = true;
  return true;
}
/* eslint-enable @typescript-eslint/no-require-imports */
