import {
  encodeKafkajsProduceRequestsInOnePass,
  type ProduceMessage,
  type ProduceRequestArgs,
} from './kafkajs-produce-encoding';

/* eslint-disable @typescript-eslint/no-require-imports -- kafkajs's internals, as the encoder uses them */
type Build = (args: ProduceRequestArgs) => {
  request: { encode(): Promise<{ buf: Buffer; offset: number }> };
};
const Produce = require('kafkajs/src/protocol/requests/produce') as {
  protocol: (options: { version: number }) => Build;
};
const createRequest = require('kafkajs/src/protocol/request') as (options: {
  correlationId: number;
  clientId: string;
  request: { apiKey: number; apiVersion: number; encode(): Promise<unknown> };
}) => Promise<{ buffer: Buffer }>;
const Long = require('kafkajs/src/utils/long') as { fromValue(value: unknown): unknown };
const RecordBatchDecoder = require('kafkajs/src/protocol/recordBatch/v0/decoder') as (
  decoder: unknown,
) => Promise<{ records: Array<{ key: Buffer | null; value: Buffer | null; headers: object }> }>;
const Decoder = require('kafkajs/src/protocol/decoder') as new (buffer: Buffer) => unknown;
/* eslint-enable @typescript-eslint/no-require-imports */

/** kafkajs's own builder, taken before the encoder is installed. */
const kafkajsProtocol = Produce.protocol;
const NOW = 1_764_300_000_123;

const usageMessage = (i: number): ProduceMessage => ({
  key: String(1 + (i % 50)),
  value: JSON.stringify({ v: 1, event_id: `e-${i}`, quota: 4, model: 'gpt-4o-mini', note: 'é✓' }),
  headers: { 'x-request-id': `req-${i}`, 'x-correlation-id': `corr-${i}` },
});

const args = (overrides: Partial<ProduceRequestArgs> = {}): ProduceRequestArgs => ({
  acks: -1,
  timeout: 30_000,
  producerId: Long.fromValue(4711),
  producerEpoch: 3,
  topicData: [
    {
      topic: 'usage.recorded',
      partitions: [{ partition: 2, firstSequence: 40, messages: [usageMessage(0)] }],
    },
  ],
  ...overrides,
});

/** The whole request frame (size, header, body), as kafkajs's connection writes it. */
async function frame(build: Build, request: ProduceRequestArgs, apiVersion: number): Promise<Buffer> {
  const built = build(request).request;
  const { buffer } = await createRequest({
    correlationId: 17,
    clientId: 'relay',
    request: { apiKey: 0, apiVersion, encode: () => built.encode() },
  });
  return Buffer.from(buffer);
}

const cases: Array<[string, ProduceRequestArgs]> = [
  ['one usage event', args()],
  [
    'a batch over three partitions and two topics',
    args({
      topicData: [
        {
          topic: 'usage.recorded',
          partitions: [0, 1, 2].map((partition) => ({
            partition,
            firstSequence: 1000 * partition,
            messages: Array.from({ length: 21 + partition }, (_, i) => usageMessage(i)),
          })),
        },
        {
          topic: 'identity.token',
          partitions: [{ partition: 0, firstSequence: 0, messages: [usageMessage(9)] }],
        },
      ],
    }),
  ],
  [
    'tombstones, null keys, Buffers, repeated headers and no headers',
    args({
      topicData: [
        {
          topic: 't',
          partitions: [
            {
              partition: 0,
              messages: [
                { key: 'gone', value: null },
                { key: null, value: 'no key' },
                { value: Buffer.from([0, 1, 2, 255]), key: Buffer.from('bin') },
                {
                  key: 'k',
                  value: 'v',
                  headers: { many: ['a', Buffer.from('b'), 'ç'], one: Buffer.from('x') },
                },
                { key: 'k', value: '', headers: {} },
              ],
            },
          ],
        },
      ],
    }),
  ],
  [
    'lengths whose varints take two and three bytes, and 200 offsets',
    args({
      topicData: [
        {
          topic: 't',
          partitions: [
            {
              partition: 5,
              messages: [
                { key: 'k'.repeat(200), value: 'v'.repeat(70_000), headers: { h: 'é'.repeat(100) } },
                ...Array.from({ length: 199 }, (_, i) => usageMessage(i)),
              ],
            },
          ],
        },
      ],
    }),
  ],
  ['a transactional producer', args({ transactionalId: 'tx-1', producerId: '9007199254740993' })],
  ['no producer id (kafkajs defaults it to -1)', { acks: 1, timeout: 500, topicData: args().topicData }],
];

describe('encodeKafkajsProduceRequestsInOnePass', () => {
  beforeAll(() => {
    jest.spyOn(Date, 'now').mockReturnValue(NOW);
    expect(encodeKafkajsProduceRequestsInOnePass()).toBe(true);
  });
  afterAll(() => jest.restoreAllMocks());

  it.each(cases)('writes the bytes kafkajs writes, in one buffer of their size: %s', async (_, request) => {
    for (const version of [3, 5, 7]) {
      const expected = await frame(kafkajsProtocol({ version }), request, version);
      const encoded = await Produce.protocol({ version })(request).request.encode();
      // kafkajs's encoder grows in powers of two from 512 bytes; this one is measured first.
      expect(encoded.buf.length).toBe(encoded.offset);
      expect(await frame(Produce.protocol({ version }), request, version)).toEqual(expected);
    }
  });

  it('writes record batches that kafkajs decodes to what was sent (CRC included)', async () => {
    const messages = cases[2][1].topicData[0].partitions[0].messages;
    const body = (await Produce.protocol({ version: 7 })(cases[2][1]).request.encode()).buf;
    // Request header of the body: transactional id (2), acks (2), timeout (4), topics (4), topic (2 + 1),
    // partitions (4), partition (4), record set size (4).
    const decoded = await RecordBatchDecoder(new Decoder(body.subarray(2 + 2 + 4 + 4 + 3 + 4 + 4 + 4)));
    expect(
      decoded.records.map(({ key, value }) => [
        key?.toString('latin1') ?? null,
        value?.toString('latin1') ?? null,
      ]),
    ).toEqual(
      messages.map(({ key, value }) => [
        key == null ? null : Buffer.from(key).toString('latin1'),
        value == null ? null : Buffer.from(value).toString('latin1'),
      ]),
    );
    expect(decoded.records[3].headers).toEqual({
      many: [Buffer.from('a'), Buffer.from('b'), Buffer.from('ç')],
      one: Buffer.from('x'),
    });
  });

  it.each<[string, Partial<ProduceRequestArgs> | ProduceMessage]>([
    ['a compressed request', { compression: 1 }],
    ['a message with its own timestamp', { key: 'k', value: 'v', timestamp: String(NOW - 5) }],
    ['a header without a value', { key: 'k', value: 'v', headers: { h: undefined } }],
  ])('leaves %s to kafkajs', async (_, change) => {
    const request =
      'compression' in change
        ? args(change as Partial<ProduceRequestArgs>)
        : args({
            topicData: [{ topic: 't', partitions: [{ partition: 0, messages: [change as ProduceMessage] }] }],
          });
    const outcome = (build: Build) =>
      frame(build, request, 7).then(
        (bytes) => ({ bytes }),
        (error: Error) => ({ error: error.message }),
      );
    const expected = await outcome(kafkajsProtocol({ version: 7 }));
    expect(await outcome(Produce.protocol({ version: 7 }))).toEqual(expected);
    if ('bytes' in expected) {
      const encoded = await Produce.protocol({ version: 7 })(request).request.encode();
      expect(encoded.buf.length).not.toBe(encoded.offset);
    }
  });
});
