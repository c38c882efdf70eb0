import { decodeFetchV11, decodeKafkajsFetchesDirectly, kafkajsInternals } from './kafkajs-fetch-decoding';

/* eslint-disable @typescript-eslint/no-require-imports -- kafkajs's internals, as the decoder uses them */
interface Encoder {
  buffer: Buffer;
  writeInt8(value: number): Encoder;
  writeInt16(value: number): Encoder;
  writeInt32(value: number): Encoder;
  writeInt64(value: unknown): Encoder;
  writeString(value: string): Encoder;
  writeBuffer(value: Buffer): Encoder;
}
const Encoder = require('kafkajs/src/protocol/encoder') as new () => Encoder;
const Long = require('kafkajs/src/utils/long') as { fromValue(value: unknown): unknown };
const { RecordBatch } = require('kafkajs/src/protocol/recordBatch/v0') as {
  RecordBatch: (options: object) => Promise<Encoder>;
};
const Record = require('kafkajs/src/protocol/recordBatch/record/v0') as (options: object) => unknown;
const MessageSet = require('kafkajs/src/protocol/messageSet') as (options: object) => Encoder;
const kafkajsResponse = require('kafkajs/src/protocol/requests/fetch/v11/response') as {
  decode(rawData: Buffer): Promise<unknown>;
};
/* eslint-enable @typescript-eslint/no-require-imports */

/** kafkajs's own decoder, taken before this one is installed. */
const kafkajsDecode = kafkajsResponse.decode;
const decode = decodeFetchV11(kafkajsInternals());
const T0 = 1_764_300_000_000;

interface BatchSpec {
  firstOffset: string;
  records: Array<{
    key?: string | null;
    value?: string | Buffer | null;
    headers?: object;
    timestampDelta?: number;
  }>;
  compression?: number;
  transactional?: boolean;
  /** Attribute bits set after encoding (kafkajs does not check the CRC). */
  extraAttributes?: number;
}

async function recordBatch(spec: BatchSpec): Promise<Buffer> {
  const records = spec.records.map((record, i) =>
    Record({ offsetDelta: i, timestampDelta: record.timestampDelta ?? 0, ...record }),
  );
  const encoded = await RecordBatch({
    firstOffset: Long.fromValue(spec.firstOffset),
    firstTimestamp: T0,
    maxTimestamp: T0 + 999,
    compression: spec.compression ?? 0,
    transactional: spec.transactional ?? false,
    producerId: Long.fromValue(77),
    producerEpoch: 2,
    firstSequence: 5,
    lastOffsetDelta: records.length - 1,
    records,
  });
  const bytes = Buffer.from(encoded.buffer);
  if (spec.extraAttributes) bytes.writeInt16BE(bytes.readInt16BE(21) | spec.extraAttributes, 21);
  return bytes;
}

/** A Fetch v11 response: one topic, partitions each with the given record-set bytes. */
function fetchResponse(partitions: Array<{ recordSet: Buffer; aborted?: boolean }>): Buffer {
  const encoder = new Encoder()
    .writeInt32(0)
    .writeInt16(0)
    .writeInt32(42)
    .writeInt32(1)
    .writeString('usage.recorded');
  encoder.writeInt32(partitions.length);
  partitions.forEach(({ recordSet, aborted }, partition) => {
    encoder
      .writeInt32(partition)
      .writeInt16(0)
      .writeInt64(Long.fromValue(9_000))
      .writeInt64(Long.fromValue(9_000))
      .writeInt64(Long.fromValue(0));
    if (aborted) encoder.writeInt32(1).writeInt64(Long.fromValue(77)).writeInt64(Long.fromValue(3));
    else encoder.writeInt32(0);
    encoder.writeInt32(-1).writeInt32(recordSet.length).writeBuffer(recordSet);
  });
  return Buffer.from(encoder.buffer);
}

const usage = (i: number) => ({
  key: String(1 + (i % 50)),
  value: JSON.stringify({ v: 1, n: i, note: 'é✓' }),
  headers: { 'x-request-id': `req-${i}`, 'x-correlation-id': `corr-${i}` },
});

const plainBatches = async () =>
  Buffer.concat([
    await recordBatch({ firstOffset: '0', records: Array.from({ length: 64 }, (_, i) => usage(i)) }),
    await recordBatch({
      firstOffset: '64',
      records: [
        { key: null, value: null },
        {
          key: 'k',
          value: Buffer.from([0, 255, 1]),
          headers: { many: ['a', 'b', 'c'], one: 'x', empty: '' },
        },
        {
          key: 'k',
          value: 'v'.repeat(20_000),
          timestampDelta: 500,
          headers: { toString: 'kafkajs keeps its own quirks' },
        },
        { key: 'clé', value: 'négatif', timestampDelta: -3 },
      ],
    }),
  ]);

const cases: Array<[string, () => Promise<Buffer>]> = [
  [
    'usage events, tombstones, repeated headers, timestamp deltas',
    async () => fetchResponse([{ recordSet: await plainBatches() }]),
  ],
  [
    'offsets past 2^53 and a huge timestamp delta',
    async () =>
      fetchResponse([
        {
          recordSet: await recordBatch({
            firstOffset: '9007199254740990',
            records: [usage(1), usage(2), { ...usage(3), timestampDelta: 2 ** 60 }, usage(4)],
          }),
        },
      ]),
  ],
  [
    'log-append time, a transactional batch and an aborted transaction',
    async () =>
      fetchResponse([
        { recordSet: await recordBatch({ firstOffset: '3', records: [usage(1)], extraAttributes: 0x08 }) },
        {
          recordSet: await recordBatch({ firstOffset: '3', records: [usage(2)], transactional: true }),
          aborted: true,
        },
      ]),
  ],
  [
    'a compressed batch and a control batch between plain ones (kafkajs decodes those)',
    async () =>
      fetchResponse([
        {
          recordSet: Buffer.concat([
            await recordBatch({ firstOffset: '0', records: [usage(0), usage(1)] }),
            await recordBatch({ firstOffset: '2', records: [usage(2), usage(3)], compression: 1 }),
            await recordBatch({
              firstOffset: '4',
              records: [{ key: null, value: null }],
              extraAttributes: 0x20,
            }),
            await recordBatch({ firstOffset: '5', records: [usage(5)] }),
          ]),
        },
      ]),
  ],
  [
    'a last batch cut short by the fetch limit, and an empty partition',
    async () => {
      const whole = await plainBatches();
      return fetchResponse([
        { recordSet: whole.subarray(0, whole.length - 100) },
        { recordSet: Buffer.alloc(0) },
      ]);
    },
  ],
  [
    'a header named __proto__ (kafkajs makes it an own key)',
    async () =>
      fetchResponse([
        {
          recordSet: await recordBatch({
            firstOffset: '0',
            records: [{ key: 'k', value: 'v', headers: { ['__proto__']: 'x' } }],
          }),
        },
      ]),
  ],
  [
    'a legacy message set',
    async () =>
      fetchResponse([
        {
          recordSet: Buffer.from(
            MessageSet({
              messageVersion: 1,
              compression: 0,
              entries: [{ key: 'k', value: 'v', timestamp: T0 }],
            }).buffer,
          ),
        },
      ]),
  ],
];

describe('decodeFetchV11', () => {
  it.each(cases)('returns what kafkajs returns: %s', async (_, response) => {
    const raw = await response();
    const expected = await kafkajsDecode(raw);
    expect(await decode(raw)).toEqual(expected);
  });

  it("keeps kafkajs's shapes: offsets and timestamps as decimal strings, Buffers as slices", async () => {
    const raw = fetchResponse([{ recordSet: await plainBatches() }]);
    const decoded = (await decode(raw)) as {
      responses: Array<{
        partitions: Array<{ messages: Array<{ offset: string; timestamp: string; key: Buffer | null }> }>;
      }>;
    };
    const messages = decoded.responses[0].partitions[0].messages;
    expect(messages.map((message) => message.offset)).toEqual(
      Array.from({ length: 68 }, (_, i) => String(i)),
    );
    expect(messages[66].timestamp).toBe(String(T0 + 500));
    expect(messages[67].timestamp).toBe(String(T0 - 3));
    expect(messages[0].key?.buffer).toBe(raw.buffer);
  });

  it("leaves only the batches it does not read plainly to kafkajs's record-batch decoder", async () => {
    const internals = kafkajsInternals();
    const recordBatchDecoder = jest.fn(internals.RecordBatchDecoder);
    const raw = await cases[3][1]();
    await decodeFetchV11({ ...internals, RecordBatchDecoder: recordBatchDecoder })(raw);
    // The compressed batch and the control batch; the two plain ones are read here.
    expect(recordBatchDecoder).toHaveBeenCalledTimes(2);
  });

  it('is what kafkajs uses for Fetch v11 once installed', () => {
    expect(decodeKafkajsFetchesDirectly()).toBe(true);
    expect(kafkajsResponse.decode).not.toBe(kafkajsDecode);
  });
});
