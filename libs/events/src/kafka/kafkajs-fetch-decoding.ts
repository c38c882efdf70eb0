/**
 * kafkajs 2.2.4 (its last release) decodes every fetched record through 64-bit `Long`s built from
 * decimal strings: the batch's first offset and first timestamp are kept as strings, and each record's
 * offset and timestamp is parsed from them, added to and printed again (BigInt each time); each record
 * also gets a Decoder of its own, its varlong timestamp delta goes through `Long` arithmetic, and its
 * headers are gathered by spreading an object per header.
 *
 * This replaces the decoding of Fetch v11 responses (the version kafkajs uses with any broker since
 * Kafka 2.3) with one that reads plain record batches (not compressed, not control batches) straight
 * from the response buffer, with plain numbers wherever the offsets and timestamps are below 2^53 (and
 * BigInt where not). It returns what kafkajs's own decoder returns, field for field, Buffers being
 * slices of the same response (kafkajs-fetch-decoding.spec.ts compares the two); any other batch goes
 * to kafkajs's own record-batch decoder, and a response of legacy message sets to kafkajs's own.
 */

interface DecoderInternals {
  buffer: Buffer;
  offset: number;
  readInt8(): number;
  readInt16(): number;
  readInt32(): number;
  readInt64(): { toString(): string };
  readString(): string;
  readBytes(length?: number): Buffer | null;
  canReadBytes(length: number): boolean;
  readArray<T>(reader: (decoder: DecoderInternals) => T): T[];
  readArrayAsync<T>(reader: (decoder: DecoderInternals) => Promise<T>): Promise<T[]>;
}

interface Internals {
  Decoder: new (buffer: Buffer) => DecoderInternals;
  RecordBatchDecoder: (decoder: DecoderInternals) => Promise<{ records: FetchedRecord[] }>;
  MessageSetDecoder: (decoder: DecoderInternals, size: number) => Promise<unknown[]>;
}

type HeaderValue = Buffer | null;

/** A record as kafkajs's RecordBatch decoder makes it (src/protocol/recordBatch/record/v0/decoder.js). */
export interface FetchedRecord {
  magicByte: number;
  attributes: number;
  timestamp: string;
  offset: string;
  key: Buffer | null;
  value: Buffer | null;
  headers: Record<string, HeaderValue | HeaderValue[]>;
  isControlRecord: boolean;
  batchContext: Record<string, unknown>;
}

export const PATCHED_KAFKAJS_VERSION = '2.2.4';
const FETCH_VERSION = 11;
const MAGIC_BYTE = 2;
/** The magic byte's place in a record batch (after FirstOffset, Length and PartitionLeaderEpoch). */
const MAGIC_OFFSET = 16;
/** kafkajs reads a batch only while this many bytes are left (v4/decodeMessages.js). */
const RECORD_BATCH_OVERHEAD = 49;
const COMPRESSION_MASK = 0x07;
const TIMESTAMP_TYPE_FLAG = 0x08;
const TRANSACTIONAL_FLAG = 0x10;
const CONTROL_FLAG = 0x20;
/** kafkajs's TimestampTypes (src/protocol/timestampTypes.js). */
const CREATE_TIME = 0;
const LOG_APPEND_TIME = 1;

/** Reads varints and bytes from a record, as kafkajs's Decoder does, without one per record. */
class RecordReader {
  constructor(
    readonly buf: Buffer,
    public offset: number,
  ) {}

  varInt(): number {
    let byte: number;
    let result = 0;
    let shift = 0;
    do {
      byte = this.buf[this.offset++];
      result += (byte & 0x7f) << shift;
      shift += 7;
    } while (byte >= 0x80);
    return (result >>> 1) ^ -(result & 1);
  }

  /** A zigzag varlong: a number when it fits 53 bits, else a bigint. */
  varLong(): number | bigint {
    const start = this.offset;
    let value = 0;
    let factor = 1;
    for (let i = 0; i < 7; i++) {
      const byte = this.buf[this.offset++];
      value += (byte & 0x7f) * factor;
      if (byte < 0x80) return value % 2 === 0 ? value / 2 : -(value + 1) / 2;
      factor *= 128;
    }
    this.offset = start;
    let big = 0n;
    let shift = 0n;
    let byte: number;
    do {
      byte = this.buf[this.offset++];
      big |= BigInt(byte & 0x7f) << shift;
      shift += 7n;
    } while (byte >= 0x80);
    big = BigInt.asUintN(64, big);
    return BigInt.asIntN(64, (big >> 1n) ^ -(big & 1n));
  }

  bytes(): Buffer | null {
    const length = this.varInt();
    if (length === -1) return null;
    const bytes = this.buf.subarray(this.offset, this.offset + length);
    this.offset += length;
    return bytes;
  }

  string(): string | null {
    const length = this.varInt();
    if (length === -1) return null;
    const text = this.buf.toString('utf8', this.offset, this.offset + length);
    this.offset += length;
    return text;
  }
}

/** `base + delta` as kafkajs prints it; `base` is the batch's decimal string, `baseNumber` the same if safe. */
function addToBase(base: string, baseNumber: number | undefined, delta: number | bigint): string {
  if (baseNumber !== undefined && typeof delta === 'number') return String(baseNumber + delta);
  return (BigInt(base) + BigInt(delta)).toString();
}

/** A big-endian int64 as kafkajs prints it, and as a number when that is exact for sums with a delta. */
function readInt64(buffer: Buffer, at: number): { text: string; number: number | undefined } {
  const high = buffer.readInt32BE(at);
  // |value| <= 2^52: exact as a number, and still exact plus any delta read as a number (< 2^49).
  if (high >= -0x100000 && high < 0x100000) {
    const number = high * 2 ** 32 + buffer.readUInt32BE(at + 4);
    return { text: String(number), number };
  }
  return { text: buffer.readBigInt64BE(at).toString(), number: undefined };
}

/**
 * Decodes one plain record batch at `decoder`'s offset, moving past it; returns undefined (offset
 * unchanged) when the batch is not one this decodes, and null when the batch is cut short (kafkajs's
 * partial-batch case: the fetch ended mid-batch).
 */
function decodePlainBatch(decoder: DecoderInternals): FetchedRecord[] | undefined | null {
  const { buffer } = decoder;
  const start = decoder.offset;
  const length = buffer.readInt32BE(start + 8);
  const end = start + 12 + length;
  if (end > buffer.length) return null;
  const attributes = buffer.readInt16BE(start + 21);
  if ((attributes & (COMPRESSION_MASK | CONTROL_FLAG)) !== 0) return undefined;

  const first = readInt64(buffer, start);
  const firstOffset = first.text;
  const partitionLeaderEpoch = buffer.readInt32BE(start + 12);
  const magicByte = buffer.readInt8(start + 16);
  const lastOffsetDelta = buffer.readInt32BE(start + 23);
  const firstTime = readInt64(buffer, start + 27);
  const firstTimestamp = firstTime.text;
  const maxTimestamp = readInt64(buffer, start + 35).text;
  const producerId = readInt64(buffer, start + 43).text;
  const producerEpoch = buffer.readInt16BE(start + 51);
  const firstSequence = buffer.readInt32BE(start + 53);
  const count = buffer.readInt32BE(start + 57);
  const timestampType = (attributes & TIMESTAMP_TYPE_FLAG) !== 0 ? LOG_APPEND_TIME : CREATE_TIME;
  // The same fields, in the same order, as kafkajs's batch context.
  const batchContext = {
    firstOffset,
    firstTimestamp,
    partitionLeaderEpoch,
    inTransaction: (attributes & TRANSACTIONAL_FLAG) !== 0,
    isControlBatch: false,
    lastOffsetDelta,
    producerId,
    producerEpoch,
    firstSequence,
    maxTimestamp,
    timestampType,
    magicByte,
  };
  const appendTime = timestampType === LOG_APPEND_TIME && maxTimestamp ? maxTimestamp : undefined;

  const records: FetchedRecord[] = count === -1 ? [] : new Array<FetchedRecord>(count);
  const reader = new RecordReader(buffer, start + 61);
  for (let i = 0; i < count; i++) {
    const recordLength = reader.varInt();
    const recordEnd = reader.offset + recordLength;
    const recordAttributes = buffer.readInt8(reader.offset++);
    const timestampDelta = reader.varLong();
    const offsetDelta = reader.varInt();
    const key = reader.bytes();
    const value = reader.bytes();
    const headerCount = reader.varInt();
    const headers: FetchedRecord['headers'] = {};
    for (let h = 0; h < headerCount; h++) {
      const name = reader.string() as string;
      const headerValue = reader.bytes();
      // kafkajs spreads an object per header: "__proto__" would become an own key there, a prototype here.
      if (name === '__proto__') {
        decoder.offset = start;
        return undefined;
      }
      const existing = headers[name];
      headers[name] =
        existing === undefined
          ? headerValue
          : Array.isArray(existing)
            ? [...existing, headerValue]
            : [existing, headerValue];
    }
    records[i] = {
      magicByte,
      attributes: recordAttributes,
      timestamp: appendTime ?? addToBase(firstTimestamp, firstTime.number, timestampDelta),
      offset: addToBase(firstOffset, first.number, offsetDelta),
      key,
      value,
      headers,
      isControlRecord: false,
      batchContext,
    };
    reader.offset = recordEnd;
  }
  decoder.offset = end;
  return records;
}

/** kafkajs's v4 decodeMessages (used by Fetch v4-v11), plain batches decoded here. */
async function decodeMessages(decoder: DecoderInternals, internals: Internals): Promise<unknown[]> {
  const messagesSize = decoder.readInt32();
  if (messagesSize <= 0 || !decoder.canReadBytes(messagesSize)) return [];
  const messagesBuffer = decoder.readBytes(messagesSize) as Buffer;
  const messagesDecoder = new internals.Decoder(messagesBuffer);
  if (messagesBuffer.readInt8(MAGIC_OFFSET) !== MAGIC_BYTE) {
    return internals.MessageSetDecoder(messagesDecoder, messagesSize);
  }
  const records: FetchedRecord[] = [];
  while (messagesDecoder.canReadBytes(RECORD_BATCH_OVERHEAD)) {
    const plain = decodePlainBatch(messagesDecoder);
    if (plain === null) break;
    if (plain) {
      for (const record of plain) records.push(record);
      continue;
    }
    try {
      const batch = await internals.RecordBatchDecoder(messagesDecoder);
      for (const record of batch.records) records.push(record);
    } catch (error) {
      // The fetch's last batch may be cut short by its byte limit: the next fetch reads it whole.
      if ((error as Error).name === 'KafkaJSPartialMessageError') break;
      throw error;
    }
  }
  return records;
}

/** kafkajs's Fetch v11 response decoder (src/protocol/requests/fetch/v11/response.js), field for field. */
export function decodeFetchV11(internals: Internals) {
  const decodePartition = async (decoder: DecoderInternals) => ({
    partition: decoder.readInt32(),
    errorCode: decoder.readInt16(),
    highWatermark: decoder.readInt64().toString(),
    lastStableOffset: decoder.readInt64().toString(),
    lastStartOffset: decoder.readInt64().toString(),
    abortedTransactions: decoder.readArray((aborted) => ({
      producerId: aborted.readInt64().toString(),
      firstOffset: aborted.readInt64().toString(),
    })),
    preferredReadReplica: decoder.readInt32(),
    messages: await decodeMessages(decoder, internals),
  });
  const decodeResponse = async (decoder: DecoderInternals) => ({
    topicName: decoder.readString(),
    partitions: await decoder.readArrayAsync(decodePartition),
  });
  return async (rawData: Buffer) => {
    const decoder = new internals.Decoder(rawData);
    const clientSideThrottleTime = decoder.readInt32();
    const errorCode = decoder.readInt16();
    const sessionId = decoder.readInt32();
    const responses = await decoder.readArrayAsync(decodeResponse);
    return { throttleTime: 0, clientSideThrottleTime, errorCode, sessionId, responses };
  };
}

/* eslint-disable @typescript-eslint/no-require-imports -- kafkajs ships no types for its internals */
export function kafkajsInternals(): Internals {
  return {
    Decoder: require('kafkajs/src/protocol/decoder') as Internals['Decoder'],
    RecordBatchDecoder:
      require('kafkajs/src/protocol/recordBatch/v0/decoder') as Internals['RecordBatchDecoder'],
    MessageSetDecoder: require('kafkajs/src/protocol/messageSet/decoder') as Internals['MessageSetDecoder'],
  };
}

let installed = false;

/** Installs the decoder for Fetch v11 once; returns false (and changes nothing) on a kafkajs other than the patched one. */
export function decodeKafkajsFetchesDirectly(): boolean {
  if (installed) return true;
  const { version } = require('kafkajs/package.json') as { version: string };
  if (version !== PATCHED_KAFKAJS_VERSION) return false;
  // kafkajs requires this module for every Fetch v11 it builds and hands its `decode` the response.
  const response = require(`kafkajs/src/protocol/requests/fetch/v${FETCH_VERSION}/response`) as {
    decode: (rawData: Buffer) => Promise<unknown>;
  };
  response.decode = decodeFetchV11(kafkajsInternals());
  installed = true;
  return true;
}
/* eslint-enable @typescript-eslint/no-require-imports */
