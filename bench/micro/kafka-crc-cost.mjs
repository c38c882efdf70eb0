#!/usr/bin/env node
// What the CRC-32C of a produce request's record batch costs per usage event (issue 17, h115), apart from
// everything else: the record batch relay's publisher writes (libs/events' encodeProduceRequest) for
// --batches usage events of the size relay publishes, checksummed by kafkajs's crc32C (a table lookup per
// byte) and by the slicing-by-8 one of libs/events (kafka-crc32c.ts, when built), ns per event and per
// byte, median of --rounds. Also what messageBytes' Buffer.byteLength of a value costs (the publisher
// measures each value once to split requests, the encoder once more).
//
//   node scripts/build.mjs
//   node bench/micro/kafka-crc-cost.mjs [--batches 1,64] [--rounds 5] [--ms 400]
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { benchUsageEvent } from '../lib/usage-event-fixture.mjs';

const { values: args } = parseArgs({
  options: {
    batches: { type: 'string', default: '1,64' },
    rounds: { type: 'string', default: '5' },
    ms: { type: 'string', default: '400' },
  },
});
const require = createRequire(import.meta.url);
const kafkajsCrc32C = require('kafkajs/src/protocol/recordBatch/crc32C');
const Long = require('kafkajs/src/utils/long');
const events = require('../../libs/events/dist/kafka/kafkajs-produce-encoding.js');
const sliced = existsSync(new URL('../../libs/events/dist/kafka/kafka-crc32c.js', import.meta.url))
  ? require('../../libs/events/dist/kafka/kafka-crc32c.js').crc32c
  : undefined;

function usageMessage(i) {
  const event = benchUsageEvent(i);
  return { ...event, value: JSON.stringify(event.value) };
}

/** The CRC'd part of the record batch relay's publisher writes for `count` events. */
function recordBatch(count) {
  let covered;
  const request = events.encodeProduceRequest(
    {
      acks: -1,
      timeout: 30000,
      topicData: [
        {
          topic: 'usage.recorded',
          partitions: [{ partition: 0, messages: Array.from({ length: count }, (_, i) => usageMessage(i)) }],
        },
      ],
    },
    {
      Long,
      crc32C: (buf) => {
        covered = Buffer.from(buf);
        return kafkajsCrc32C(buf);
      },
    },
    Date.now(),
  );
  if (!request) throw new Error('not encoded');
  return covered;
}

const median = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];
let sink = 0;
function nsPerCall(fn, input) {
  const deadline = process.hrtime.bigint() + BigInt(Number(args.ms) * 1e6);
  let calls = 0;
  const start = process.hrtime.bigint();
  let now = start;
  while (now < deadline) {
    for (let i = 0; i < 200; i++) sink ^= fn(input);
    calls += 200;
    now = process.hrtime.bigint();
  }
  return Number(now - start) / calls;
}

const rows = [];
for (const count of args.batches.split(',').map(Number)) {
  const batch = recordBatch(count);
  const value = usageMessage(0).value;
  if (sliced && sliced(batch) !== kafkajsCrc32C(batch)) throw new Error('CRCs differ');
  const runs = { kafkajs: [], sliced: [], byteLength: [] };
  for (let round = 0; round < Number(args.rounds); round++) {
    runs.kafkajs.push(nsPerCall(kafkajsCrc32C, batch));
    if (sliced) runs.sliced.push(nsPerCall(sliced, batch));
    runs.byteLength.push(nsPerCall((v) => Buffer.byteLength(v), value));
  }
  const row = { events: count, batchBytes: batch.length, bytesPerEvent: Math.round(batch.length / count) };
  row.kafkajsNsPerEvent = +(median(runs.kafkajs) / count).toFixed(1);
  row.kafkajsNsPerByte = +(median(runs.kafkajs) / batch.length).toFixed(2);
  if (sliced) {
    row.slicedNsPerEvent = +(median(runs.sliced) / count).toFixed(1);
    row.slicedNsPerByte = +(median(runs.sliced) / batch.length).toFixed(2);
  }
  row.valueByteLengthNs = +median(runs.byteLength).toFixed(1);
  rows.push(row);
}
console.table(rows);
if (sink === 0.5) console.log(sink);
