#!/usr/bin/env node
// What one kind of Kafka request costs the broker (issue 17, H42): drives a single request type alone
// against a broker of the run's own for a few seconds and reads the broker's CPU (utime + stime from
// /proc) and this process's, per second and per request, beside the broker's idle cost.
//
//   produce  the relay's publisher (KafkaPublisher, acks -1, idempotent) at --rate events/s of
//            --bytes each, --linger ms between produce requests (0 and 10 and 50 compare cadences)
//   consume  the same, with a consumer of its own reading the topic (minBytes 1): what a fetch
//            answered per produce adds
//   commit   OffsetCommit requests alone, --rate a second (one partition each)
//
//   export TOLLGATE_INFRA_DIR=/tmp/h42-infra; bash scripts/infra.sh up kafka && eval "$(bash scripts/infra.sh env kafka)"
//   node bench/micro/kafka-broker-cost.mjs --mode produce --rate 600 --linger 10
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import { CLOCK_TICKS, processTable } from '../lib/proc.mjs';
import { infrastructurePids } from '../lib/proc.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const { values: args } = parseArgs({
  options: {
    root: { type: 'string', default: join(HERE, '..', '..') },
    mode: { type: 'string', default: 'produce' },
    rate: { type: 'string', default: '600' },
    bytes: { type: 'string', default: '600' },
    linger: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '10' },
  },
});
const requireFromRoot = createRequire(join(resolve(args.root), 'package.json'));
const { KafkaEventBus } = requireFromRoot('@tollgate/events');
const { Kafka, logLevel } = requireFromRoot('kafkajs');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const log = (line) => console.error(`[kafka-broker-cost] ${line}`);

const brokers = process.env.KAFKA_BROKERS?.split(',');
if (!brokers) throw new Error('KAFKA_BROKERS is not set');
const brokerPid = infrastructurePids(
  { DATABASE_URL: 'x://remote:1', REDIS_URL: 'x://remote:1', KAFKA_BROKERS: brokers[0] },
  () => {},
).kafka;
const brokerTicks = () => processTable().get(brokerPid).ticks;
const ownMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

async function measure(seconds, drive, counted) {
  counted?.clear();
  const t0 = brokerTicks();
  const c0 = ownMs();
  const w0 = performance.now();
  const requests = await drive(seconds * 1000);
  const wall = (performance.now() - w0) / 1000;
  const brokerMs = ((brokerTicks() - t0) * 1000) / CLOCK_TICKS;
  return {
    wall,
    requests,
    brokerMsPerS: brokerMs / wall,
    ownMsPerS: (ownMs() - c0) / wall,
    brokerMs,
    ownMs: ownMs() - c0,
  };
}

async function main() {
  const run = randomBytes(3).toString('hex');
  const topic = `cost.${run}`;
  const rate = Number(args.rate);
  const seconds = Number(args.seconds);
  const bus = new KafkaEventBus({ brokers, clientId: `cost-${run}`, lingerMs: Number(args.linger) });
  await bus.ensureTopics([{ name: topic, partitions: 3 }]);
  const kafka = new Kafka({ brokers, clientId: `cost-raw-${run}`, logLevel: logLevel.NOTHING });
  let produced = 0;
  const counted = new Map();
  // Requests by API, from kafkajs's instrumentation.
  const count = (e) => counted.set(e.payload.apiName, (counted.get(e.payload.apiName) ?? 0) + 1);
  const value = { pad: 'x'.repeat(Math.max(0, Number(args.bytes) - 60)) };

  const idle = await measure(5, (ms) => sleep(ms).then(() => 0));
  log(`broker idle ${idle.brokerMsPerS.toFixed(1)} ms/s`);

  let consumer;
  if (args.mode === 'consume') {
    consumer = kafka.consumer({ groupId: `cost-${run}`, maxWaitTimeInMs: 5000 });
    consumer.on(consumer.events.REQUEST, count);
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({ eachBatch: async () => undefined, autoCommit: false });
    await sleep(3000);
  }

  let result;
  if (args.mode === 'produce' || args.mode === 'consume') {
    // One publish per event, paced like calls ending: `rate` a second, spread over each 10 ms.
    const producer = bus.publisher?.producer;
    producer?.on(producer.events.REQUEST, count);
    result = await measure(
      seconds,
      async (ms) => {
        const end = performance.now() + ms;
        const pending = [];
        let next = performance.now();
        while (performance.now() < end) {
          const due = Math.floor(((performance.now() - next) * rate) / 1000);
          for (let i = 0; i < due; i++) {
            pending.push(
              bus.publish([{ topic, key: `k${produced % 97}`, value: { ...value, n: produced } }]),
            );
            produced++;
          }
          if (due > 0) next += (due * 1000) / rate;
          await sleep(2);
        }
        await Promise.all(pending);
        return produced;
      },
      counted,
    );
  } else if (args.mode === 'commit') {
    const committer = kafka.consumer({ groupId: `cost-c-${run}` });
    committer.on(committer.events.REQUEST, count);
    await committer.connect();
    await committer.subscribe({ topics: [topic], fromBeginning: true });
    await committer.run({ eachBatch: async () => undefined, autoCommit: false });
    await sleep(3000);
    let offset = 0;
    result = await measure(
      seconds,
      async (ms) => {
        const end = performance.now() + ms;
        while (performance.now() < end) {
          await committer.commitOffsets([{ topic, partition: offset % 3, offset: String(++offset) }]);
          await sleep(1000 / rate);
        }
        return offset;
      },
      counted,
    );
    await committer.disconnect();
  }
  const requests = Object.fromEntries(counted);
  console.log(
    JSON.stringify({
      mode: args.mode,
      rate,
      linger: Number(args.linger),
      events: result.requests,
      requestsPerS: Object.fromEntries(
        Object.entries(requests).map(([k, v]) => [k, +(v / result.wall).toFixed(1)]),
      ),
      brokerIdleMsPerS: +idle.brokerMsPerS.toFixed(1),
      brokerMsPerS: +result.brokerMsPerS.toFixed(1),
      clientMsPerS: +result.ownMsPerS.toFixed(1),
    }),
  );
  await consumer?.disconnect();
  await bus.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
