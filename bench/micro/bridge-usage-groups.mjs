#!/usr/bin/env node
// The bookkeeping worker's side of the embedded bus for usage.recorded (issue 17, H56): the bridged bus
// (libs/events bridge) in a worker thread with three groups that decode every record with the
// contract's zod schema and batch as auth's, billing's and admin's consumers do (1 MB or 250 ms), fed
// by an in-process bus on the main thread at a steady rate. Reports the worker thread's CPU per record
// (/proc/thread-self/schedstat, read in the worker), for each variant, interleaved round after round.
// A variant is a checkout whose libs/events and libs/contracts are built.
//
//   node bench/micro/bridge-usage-groups.mjs --variants base=/tmp/h56/base,head=. \
//     [--records 30000] [--rate 3000] [--rounds 3] [--groups 3]
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { MessageChannel, Worker } from 'node:worker_threads';

const { values: args } = parseArgs({
  options: {
    variants: { type: 'string', default: 'head=.' },
    records: { type: 'string', default: '30000' },
    rate: { type: 'string', default: '3000' },
    rounds: { type: 'string', default: '3' },
    groups: { type: 'string', default: '3' },
  },
});
const variants = args.variants.split(',').map((entry) => {
  const [name, root] = entry.split('=');
  return { name, root: resolve(root) };
});
const total = Number(args.records);
const rate = Number(args.rate);
const TOPIC = 'usage.recorded';
const silent = { info() {}, warn() {}, error() {} };

/** The worker: a bridged bus with `groups` decoding groups; answers its CPU (ns) and records handled. */
const WORKER = `
const { workerData, parentPort } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const load = createRequire(workerData.root + '/package.json');
const { BridgedEventBus } = load('./libs/events/dist/index.js');
const { usageRecordedV1 } = load('./libs/contracts/dist/index.js');
const runNs = () => Number(readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ')[0]);
const bus = new BridgedEventBus(workerData.port);
let handled = 0;
const decode = (value) => {
  const parsed = usageRecordedV1.safeParse(value);
  if (!parsed.success) throw new Error('malformed');
  return parsed.data;
};
(async () => {
  for (let g = 0; g < workerData.groups; g++) {
    await bus.subscribe({
      groupId: 'group-' + g,
      topics: [workerData.topic],
      decode,
      batching: { minBytes: 1024 * 1024, maxWaitMs: 250 },
      handler: async (batch) => void (handled += batch.length),
    });
  }
  const started = runNs();
  parentPort.postMessage({ ready: true });
  parentPort.on('message', async (message) => {
    if (message === 'report') parentPort.postMessage({ cpuNs: runNs() - started, handled });
    else if (message === 'close') await bus.close();
  });
})();
`;

const usage = (n) => ({
  v: 1,
  event_id: `0193a1f2-7c1e-7000-8000-${String(n).padStart(12, '0')}`,
  request_id: `req-0193a1f27c1e7000${n}`,
  user_id: 42,
  token_id: 7,
  token_name: 'bench',
  channel_id: 1,
  group: 'default',
  model: 'gpt-4o-mini',
  upstream_model: 'gpt-4o-mini',
  prompt_tokens: 12,
  completion_tokens: 30,
  cached_tokens: 0,
  quota: 1234,
  price: { input: '0.15', output: '0.6', cached_input: '0.075', group_ratio: '1' },
  latency_ms: 3,
  ttft_ms: null,
  is_stream: false,
  status: 'success',
  created_at: 1764252000,
  response_id: `chatcmpl-${n}`,
  finish_reason: 'stop',
});

async function round({ root }) {
  const events = createRequire(join(root, 'package.json'))('./libs/events/dist/index.js');
  const owner = new events.InProcessEventBus({ logger: silent });
  await owner.ensureTopics([{ name: TOPIC, partitions: 1 }]);
  const { port1, port2 } = new MessageChannel();
  const host = events.serveEventBus(owner, port2);
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: { root, port: port1, groups: Number(args.groups), topic: TOPIC },
    transferList: [port1],
  });
  const next = () => new Promise((resolve) => worker.once('message', resolve));
  await next();
  const started = performance.now();
  let published = 0;
  while (published < total) {
    const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate));
    const batch = [];
    for (; published < due; published++) batch.push({ topic: TOPIC, key: 'user-1', value: usage(published) });
    if (batch.length > 0) void owner.publish(batch);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  // Every group has handled every record, then the worker reports.
  const expected = total * Number(args.groups);
  let report;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    worker.postMessage('report');
    report = await next();
    if (report.handled >= expected) break;
  }
  worker.postMessage('close');
  await host.close();
  await owner.close();
  await worker.terminate();
  return { cpuUsPerRecord: report.cpuNs / 1000 / total };
}

console.log(`${total} records at ${rate}/s, ${args.groups} decoding groups in the worker`);
console.log('round | variant | worker CPU µs/record');
for (let r = 1; r <= Number(args.rounds); r++) {
  for (const variant of variants) {
    const result = await round(variant);
    console.log(`${r} | ${variant.name} | ${result.cpuUsPerRecord.toFixed(1)}`);
  }
}
