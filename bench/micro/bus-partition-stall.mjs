#!/usr/bin/env node
// The embedded bus's partition files under a steady publish rate (issue 17, H56): what one turn of the
// event loop costs at most while usage.recorded-sized records are appended to one partition with a data
// directory, the CPU per record of the whole process, and how long a bus takes to open the directory it
// left. A 1 ms timer ticks throughout; between two ticks it reads the wall time and what the main
// thread ran (/proc/thread-self/schedstat): the longest gap in run time (what the bus did in one turn,
// on a machine whose other programs preempt this one) and in wall time (what a caller waiting on the
// loop saw), and how many gaps ran more than 5 and 20 ms.
// Each variant is a checkout whose libs/events is built (`npx tsc -b tsconfig.build.json`); variants
// run interleaved, round after round, each round on a fresh data directory.
//
//   node bench/micro/bus-partition-stall.mjs --variants base=/tmp/h56/base,head=. \
//     [--records 60000] [--rate 3000] [--rounds 3] [--retain 10000]
import { closeSync, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    variants: { type: 'string', default: 'head=.' },
    records: { type: 'string', default: '60000' },
    rate: { type: 'string', default: '3000' },
    rounds: { type: 'string', default: '3' },
    retain: { type: 'string', default: '10000' },
  },
});
const variants = args.variants.split(',').map((entry) => {
  const [name, root] = entry.split('=');
  return { name, events: createRequire(join(resolve(root), 'package.json'))('./libs/events/dist/index.js') };
});
const total = Number(args.records);
const rate = Number(args.rate);
const retain = Number(args.retain);
const silent = { info() {}, warn() {}, error() {}, debug() {} };
const TOPIC = 'usage.recorded';
const schedstat = openSync('/proc/thread-self/schedstat', 'r');
const schedBuffer = Buffer.alloc(128);
/** CPU ms the main thread has run. */
const runMs = () =>
  Number(schedBuffer.toString('latin1', 0, readSync(schedstat, schedBuffer, 0, 128, 0)).split(' ')[0]) / 1e6;

/** About the size and shape of relay's usage.recorded value. */
const usage = (n) => ({
  v: 1,
  event_id: `0193a1f2-7c1e-7000-8000-${String(n).padStart(12, '0')}`,
  request_id: `req-0193a1f27c1e7000${n}`,
  user_id: '0193a1f2-7c1e-7000-8000-000000000001',
  token_id: '0193a1f2-7c1e-7000-8000-000000000002',
  token_name: 'bench',
  channel_id: 1,
  group: 'default',
  model: 'gpt-4o-mini',
  upstream_model: 'gpt-4o-mini',
  prompt_tokens: 12,
  completion_tokens: 30,
  cached_tokens: 0,
  quota: '1234',
  price: { input: '0.15', output: '0.6', cached_input: '0.075', currency: 'USD', multiplier: '1' },
  latency_ms: 3,
  ttft_ms: null,
  is_stream: false,
  status: 'ok',
  created_at: '2026-11-27T14:00:00.000Z',
  response_id: `chatcmpl-${n}`,
  finish_reason: 'stop',
});

async function round(variant) {
  const dataDir = mkdtempSync(join(tmpdir(), 'bus-stall-'));
  try {
    let bus = new variant.events.InProcessEventBus({
      dataDir,
      logger: silent,
      retainRecordsPerPartition: retain,
    });
    await bus.ensureTopics([{ name: TOPIC, partitions: 1 }]);
    // A consumer that keeps up, so that retention may drop what it has read.
    await bus.subscribeEncoded({ groupId: 'reader', topics: [TOPIC], handler: async () => undefined });
    const gaps = [];
    const cpuGaps = [];
    let last = performance.now();
    let lastRun = runMs();
    const ticker = setInterval(() => {
      const now = performance.now();
      const run = runMs();
      gaps.push(now - last);
      cpuGaps.push(run - lastRun);
      last = now;
      lastRun = run;
    }, 1);
    const cpu0 = process.cpuUsage();
    const started = performance.now();
    let published = 0;
    const pending = [];
    while (published < total) {
      // Publish what is due by now, then give the loop a turn.
      const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate));
      for (; published < due; published++) {
        pending.push(bus.publish([{ topic: TOPIC, key: 'user-1', value: usage(published) }]));
      }
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await Promise.all(pending);
    const cpu = process.cpuUsage(cpu0);
    clearInterval(ticker);
    await bus.close();
    const reopenStarted = performance.now();
    bus = new variant.events.InProcessEventBus({
      dataDir,
      logger: silent,
      retainRecordsPerPartition: retain,
    });
    const reopenMs = performance.now() - reopenStarted;
    await bus.close();
    gaps.sort((a, b) => a - b);
    cpuGaps.sort((a, b) => a - b);
    return {
      maxGapMs: gaps[gaps.length - 1],
      maxCpuGapMs: cpuGaps[cpuGaps.length - 1],
      p999CpuGapMs: cpuGaps[Math.floor(cpuGaps.length * 0.999)],
      over5: cpuGaps.filter((gap) => gap > 5).length,
      over20: cpuGaps.filter((gap) => gap > 20).length,
      cpuUsPerRecord: (cpu.user + cpu.system) / total,
      reopenMs,
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const f = (value, digits = 1) => value.toFixed(digits);
console.log(`${total} records at ${rate}/s into one partition, retention ${retain}`);
console.log(
  'round | variant | longest gap: ran ms | wall ms | p99.9 of gaps: ran ms | gaps that ran >5 ms | >20 ms | process CPU µs/record | reopen ms',
);
for (let r = 1; r <= Number(args.rounds); r++) {
  for (const variant of variants) {
    const result = await round(variant);
    console.log(
      `${r} | ${variant.name} | ${f(result.maxCpuGapMs)} | ${f(result.maxGapMs)} | ${f(result.p999CpuGapMs)} | ${result.over5} | ${result.over20} | ${f(result.cpuUsPerRecord)} | ${f(result.reopenMs)}`,
    );
  }
}
closeSync(schedstat);
