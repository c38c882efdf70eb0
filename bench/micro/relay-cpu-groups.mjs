#!/usr/bin/env node
// Where a running relay's CPU goes, by part (issue 17, brief H41): Linux `perf` samples the process's
// CPU (every thread, kernel included), and each sample counts for the nearest JavaScript frame on its
// stack, grouped as Fastify, undici, kafkajs and libs/events, ioredis, relay's own modules, node's
// http and streams, ... A V8 .cpuprofile (hot-path-cpu.mjs --profile) samples wall time on the main
// thread only: a `writev` preempted by the process it woke counts there in full, and GC and JIT
// threads not at all. On a busy two-core machine its socket-write share was 30–46 %, where the CPU
// spent under those writes (kernel included) is 12–18 %. Read shares from this; CPU per call from
// /proc (hot-path-cpu.mjs).
//
// The process must run with `--perf-basic-prof` (JS frames get names), e.g. the hot-path bench's:
//   NODE_OPTIONS=--perf-basic-prof node bench/hot-path-cpu.mjs --levels 16:80000 --rounds 1 &
//   # once it logs "idle:", and a few seconds more:
//   node bench/micro/relay-cpu-groups.mjs --pid "$(pgrep -n -f apps/relay/dist/main.js)" --seconds 15
//   node bench/micro/relay-cpu-groups.mjs --script saved.txt --pid PID --detail 'relay:'
// Needs `perf` (linux-perf) and the right to trace the process (root, or perf_event_paranoid ≤ 1).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    pid: { type: 'string' },
    seconds: { type: 'string', default: '15' },
    frequency: { type: 'string', default: '999' },
    /** A saved `perf script -F tid,ip,sym,dso` output instead of recording. */
    script: { type: 'string' },
    /** Also print the JS functions (nearest frame) of the groups whose name contains this. */
    detail: { type: 'string' },
    /** Keep the `perf script` text here. */
    save: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (args.help || args.pid === undefined) {
  console.log(
    'node bench/micro/relay-cpu-groups.mjs --pid PID [--seconds 15] [--frequency 999] [--detail TEXT] [--save FILE] [--script FILE]',
  );
  process.exit(args.help ? 0 : 2);
}

const FASTIFY =
  /node_modules\/(fastify|find-my-way|@fastify\/[^/]+|avvio|light-my-request|fast-json-stringify|@nestjs\/[^/]+|middie|fast-querystring|toad-cache|process-warning|abstract-logging|rfdc|fastq)\//;
const REDIS =
  /node_modules\/(ioredis|redis-parser|denque|cluster-key-slot|standard-as-callback)\/|\/libs\/kv\//;

/** The part of the relay a JS frame's script belongs to. */
function groupOfScript(script) {
  if (script.includes('secure-json-parse')) return 'Fastify/Nest/find-my-way';
  if (FASTIFY.test(script)) return 'Fastify/Nest/find-my-way';
  if (/node_modules\/undici\/|wasm-function|wasm-to-js/.test(script))
    return 'undici (upstream client, llhttp)';
  if (/node_modules\/kafkajs\//.test(script)) return 'Kafka publisher: kafkajs';
  if (/\/libs\/events\/|\/libs\/runtime\/dist\/correlated-event-bus/.test(script))
    return 'Kafka publisher: libs/events';
  if (REDIS.test(script)) return 'Redis client (ioredis, libs/kv)';
  if (/node_modules\/zod\//.test(script)) return 'zod';
  if (/node_modules\/(pino|sonic-boom|fast-redact|thread-stream)\//.test(script)) return 'logging (pino)';
  if (/node_modules\/prom-client\/|\/libs\/platform\/dist\/metrics\//.test(script)) return 'metrics';
  if (/\/libs\/platform\//.test(script)) return 'libs/platform (other)';
  if (/\/libs\/contracts\//.test(script)) return 'libs/contracts (charge)';
  const relay = /\/apps\/relay\/dist\/(?:([^/]+)\/)?[^/]+\.js/.exec(script);
  if (relay) return `relay: ${relay[1] ?? 'composition'}`;
  if (/node:(_http|http)/.test(script)) return 'node http (server parse, serialise)';
  // TurboFan inlines the socket write into the writable stream's code: its system call lands here.
  if (/node:(net|internal\/stream_base_commons|internal\/streams\/writable)/.test(script))
    return 'node socket writes (net, writable streams)';
  if (/node:internal\/(streams|process\/task_queues|timers)|node:(events|timers)/.test(script))
    return 'node streams, events, ticks (promise jobs)';
  if (/node:/.test(script)) return 'node core (other)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(script);
  return pkg ? `package: ${pkg[1]}` : 'other JS';
}

const GC = /Heap::CollectGarbage|Scavenger|MarkCompact|Heap::PerformGarbageCollection|ScavengerCollector/;
const COMPILE = /compiler::|Compiler::|Builtins_CompileLazy|maglev::/;

function groupOfSample(tid, frames, mainTid) {
  const stack = frames.join('\n');
  if (tid !== mainTid) {
    if (/Scaveng|Marking|Sweep|Evacuat|Heap::|Concurrent/.test(stack)) return 'other threads: GC';
    if (/compiler|Compile|Turbofan|Maglev/.test(stack)) return 'other threads: JIT compile';
    return 'other threads: other (libuv pool, platform)';
  }
  if (frames.some((f) => GC.test(f))) return 'main thread: GC';
  if (frames.some((f) => COMPILE.test(f))) return 'main thread: JIT compile';
  const kernel = /\[kernel|\(\[k\]|kallsyms/.test(frames[0] ?? '');
  const js = frames.find((f) => f.includes(' JS:'));
  if (js !== undefined) {
    const group = groupOfScript(js);
    return kernel ? `kernel, under ${group}` : group;
  }
  if (kernel)
    return frames.some((f) => /uv__io_poll|epoll_pwait|epoll_wait/.test(f))
      ? 'kernel: epoll and reads (event loop)'
      : 'kernel: other';
  return 'main thread: native outside JS (libuv, node C++)';
}

function nearestJsFunction(frames) {
  const js = frames.find((f) => f.includes(' JS:'));
  return (js ?? frames[0] ?? '?')
    .replace(/^\S+\s+/, '')
    .replace(/\s+\(\/tmp\/perf-\d+\.map\)$/, '')
    .replace(/\S*\/(node_modules|dist)\//, '');
}

let text;
if (args.script !== undefined) text = readFileSync(args.script, 'utf8');
else {
  const dir = mkdtempSync(join(tmpdir(), 'relay-cpu-groups-'));
  try {
    const data = join(dir, 'perf.data');
    execFileSync(
      'perf',
      ['record', '-F', args.frequency, '-g', '-p', args.pid, '-o', data, '--', 'sleep', args.seconds],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    text = execFileSync('perf', ['script', '-i', data, '-F', 'tid,ip,sym,dso'], {
      maxBuffer: 1 << 30,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (args.save !== undefined) writeFileSync(args.save, text);
}

const groups = new Map();
const details = new Map();
let total = 0;
for (const block of text.split('\n\n')) {
  const lines = block.split('\n').filter((line) => line.trim() !== '');
  if (lines.length === 0) continue;
  const tid = lines[0].trim().split(/\s+/)[0];
  const frames = lines.slice(1).map((line) => line.trim());
  const group = groupOfSample(tid, frames, args.pid);
  groups.set(group, (groups.get(group) ?? 0) + 1);
  total++;
  if (args.detail !== undefined && group.includes(args.detail)) {
    const name = nearestJsFunction(frames);
    details.set(name, (details.get(name) ?? 0) + 1);
  }
}

const share = (n) => `${((100 * n) / total).toFixed(1).padStart(5)} %`;
console.log(`${total} samples of pid ${args.pid} (every thread)`);
for (const [group, n] of [...groups].sort((a, b) => b[1] - a[1])) console.log(`${share(n)}  ${group}`);
if (details.size > 0) {
  console.log(`-- nearest JS function, groups matching "${args.detail}"`);
  for (const [name, n] of [...details].sort((a, b) => b[1] - a[1]).slice(0, 40))
    console.log(`${share(n)}  ${name}`);
}
