#!/usr/bin/env node
// Embedded mode's resident memory and idle CPU (bench/ANALYSIS.md, "Embedded memory"): the platform
// as the bench starts it (fresh data directory, the bench's customer seeded), its RSS and CPU per
// second idle, its peak RSS and CPU per call under a k6 load of non-streaming calls on the fake
// upstream, and idle again after. Build first.
//
//   node bench/embedded-memory.mjs [--idle 20] [--load 30] [--vus 64] [--node-flags="--max-semi-space-size=4"]
//                                  [--profile-dir <dir>] [--no-load] [--env NAME=VALUE ...] [--root <dir>]
//                                  [--breakdown] [--threads] [--profile-load] [--trace-requests] [--direct-relay]
//                                  [--loop-delay] [--syscalls <seconds>]
//
// --node-flags starts the platform's Node with those flags (a wrapper standing in for process.execPath
// while lib/embedded.mjs spawns it). --profile-dir writes a .cpuprofile of the platform's main thread
// over the first idle window (after start-up and seeding) and prints its top functions and packages,
// and the same of its worker thread (the bookkeeping worker, or PGlite's with TOLLGATE_EMBEDDED_WORKER=0).
// --env (repeatable) sets a variable for the platform alone, through the same wrapper: pairs of
// `--env TOLLGATE_EMBEDDED_WORKER=0` and `=1` compare the bookkeeping worker with the main thread.
// --root runs the platform of another checkout (its own build, e.g. a copy of the tree before a change),
// through the same wrapper, so that pairs of builds can be interleaved in one sitting.
// --breakdown reports where the RSS is, idle and right after the load: /proc/<pid>/smaps by kind
// (WASM memories, the malloc heap, other anonymous memory, files) and, from every thread (a preload),
// its V8 heap (`v8.getHeapStatistics()`, code space) and how many modules its require.cache holds.
// --threads reports the CPU per call of each thread over the load (/proc/<pid>/task/<tid>/stat): the
// main thread, the bookkeeping worker (its tid written by a preload) and V8's and libuv's helper
// threads; over the load and over the load plus the 3 s after it (the worker's backlog drained), idle
// CPU of that thread subtracted.
// --trace-requests times every HTTP request the platform's main thread serves (from the server's
// 'request' to the response's 'finish') and reads, at both ends, each thread's run and run-queue wait
// (/proc/<pid>/task/<tid>/schedstat) and V8's GC pauses of the main thread: what the slowest 1 % of
// the gateway's requests spent on the main thread, waiting for a core, in GC, and what the bookkeeping
// worker and the helper threads ran meanwhile, against the median ones. It costs a few reads of /proc
// per request, so its latencies are its own: compare its breakdowns, not its p50 with another run's.
// With --threads, each thread's voluntary and involuntary context switches per call over the load too
// (/proc/<pid>/task/<tid>/status: a voluntary one is a sleep, so each is a wake-up that follows), and the
// helper threads split into those the platform's Node started before the program ran ('v8': V8's
// platform workers, which run GC's parallel and concurrent tasks, its delayed-task thread, the
// inspector's) and those started later ('pool': libuv's thread pool, which runs fs and crypto work).
// --syscalls <seconds> (with --threads) runs `perf trace -s -p <pid>` for that long from the 5th second of
// the load and reports each thread group's system calls per call over it (calls: served in that window,
// from the gateway's count of requests). perf trace slows the process: read the counts, not the times.
// --direct-relay sends the load to relay's own loopback port instead of the gateway: against a run through
// the gateway, what the gateway and its hop to relay cost per call (an upper bound of what serving relay
// in-process without HTTP could save).
// --loop-delay watches the main thread's event loop over the load: a 2 ms timer notes every gap between
// its ticks over 10 ms and what the main thread ran in it (/proc/thread-self/schedstat), so a stall of the
// thread's own work (one turn that runs long) is told from one where the thread waited for a core; with
// perf_hooks' monitorEventLoopDelay's percentiles of the loop's delay.
// --profile-load (with --profile-dir) profiles the main thread and the bookkeeping worker over the
// load instead of the idle window, and prints each one's self time per call grouped by component
// (PGlite's WASM, pglite-socket, pg/knex/MikroORM, the services, the bridges, GC, socket I/O, ...).
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { summarizeCpuProfile } from './lib/cpu-profile.mjs';
import { groupCpuProfile } from './micro/embedded-profile-groups.mjs';
import { startEmbeddedTollgate } from './lib/embedded.mjs';
import { runChatLoad } from './lib/k6.mjs';
import { startFakeUpstream } from './lib/platform.mjs';
import { CLOCK_TICKS, processTable, threadsOf, treeOf } from './lib/proc.mjs';
import { sampleRss, treeRss } from './lib/rss.mjs';
import { envAssignments } from './lib/env-assignments.mjs';

const { values } = parseArgs({
  options: {
    idle: { type: 'string', default: '20' },
    load: { type: 'string', default: '30' },
    vus: { type: 'string', default: '64' },
    'node-flags': { type: 'string', default: '' },
    'profile-dir': { type: 'string' },
    'no-load': { type: 'boolean', default: false },
    env: { type: 'string', multiple: true, default: [] },
    root: { type: 'string' },
    breakdown: { type: 'boolean', default: false },
    threads: { type: 'boolean', default: false },
    'profile-load': { type: 'boolean', default: false },
    'trace-requests': { type: 'boolean', default: false },
    'direct-relay': { type: 'boolean', default: false },
    'loop-delay': { type: 'boolean', default: false },
    syscalls: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  // The file's opening comment is its manual.
  const manual = readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\nimport ')[0];
  console.log(manual.replace(/^#!.*\n/, '').replace(/^\/\/ ?/gm, ''));
  process.exit(0);
}
const platformEnv = Object.entries(envAssignments(values.env)).map(
  ([name, value]) => `export ${name}=${JSON.stringify(value)}\n`,
);
const idleMs = Number(values.idle) * 1000;
const mb = (bytes) => Math.round(bytes / 2 ** 20);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** The profile preload's name for PGlite's worker thread. */
const PGLITE_WORKER = 'embedded-pglite';
const PROFILER_PRELOAD = fileURLToPath(new URL('./lib/cpu-profiler.preload.cjs', import.meta.url));

const logDir = mkdtempSync(join(tmpdir(), 'tollgate-embedded-memory-'));
const nodeArgs = values['node-flags'].split(/\s+/).filter(Boolean);
/** Writes a preload script into the log directory and starts the platform's Node with it. */
function addPreload(name, source) {
  const file = join(logDir, name);
  writeFileSync(file, source);
  nodeArgs.push('--require', file);
}
const profileDir = values['profile-dir'];
const profileLoad = values['profile-load'];
if (profileLoad && !profileDir) throw new Error('--profile-load wants --profile-dir');
if (profileLoad) {
  mkdirSync(profileDir, { recursive: true });
  // Every thread (workers inherit --require) starts V8's profiler when <dir>/start appears and writes
  // its profile when <dir>/stop does: a worker gets no signal, and is terminated without 'exit'.
  addPreload(
    'profile-load.cjs',
    `const { Session } = require('node:inspector');
const { existsSync, writeFileSync } = require('node:fs');
const { isMainThread, threadId } = require('node:worker_threads');
const dir = ${JSON.stringify(profileDir)};
const session = new Session();
session.connect();
session.post('Profiler.enable');
session.post('Profiler.setSamplingInterval', { interval: 250 });
let state = 'waiting';
const poll = setInterval(() => {
  if (state === 'waiting' && existsSync(dir + '/start')) {
    state = 'running';
    session.post('Profiler.start');
  } else if (state === 'running' && existsSync(dir + '/stop')) {
    state = 'done';
    clearInterval(poll);
    session.post('Profiler.stop', (error, result) => {
      if (!error) writeFileSync(dir + '/' + (isMainThread ? 'main' : 'worker' + threadId) + '.' + process.pid + '.cpuprofile', JSON.stringify(result.profile));
    });
  }
}, 50);
poll.unref();
`,
  );
} else if (profileDir) {
  mkdirSync(profileDir, { recursive: true });
  // The bench's profiler preload profiles a process by its SERVICE_NAME, which the embedded platform
  // must not see (every service would take it as its own name): named here, for the preload alone.
  // PGlite's worker thread inherits the --require; it keeps its name (its own copy of the
  // environment, no service there), which names its profile file apart from the main thread's.
  addPreload(
    'profile-embedded.cjs',
    `if (require('node:worker_threads').isMainThread) {\n` +
      `  process.env.SERVICE_NAME = 'embedded';\n  require(${JSON.stringify(PROFILER_PRELOAD)});\n  delete process.env.SERVICE_NAME;\n` +
      `} else {\n  process.env.SERVICE_NAME = '${PGLITE_WORKER}';\n  require(${JSON.stringify(PROFILER_PRELOAD)});\n}\n`,
  );
}

const threadsDir = values.threads ? join(logDir, 'threads') : undefined;
if (threadsDir) {
  mkdirSync(threadsDir);
  // Each worker thread names its tid (Node 20 leaves every thread's comm "node").
  addPreload(
    'threads.cjs',
    `const { isMainThread, threadId } = require('node:worker_threads');
const fs = require('node:fs');
if (!isMainThread) {
  const tid = fs.readlinkSync('/proc/thread-self').split('/').pop();
  fs.writeFileSync(${JSON.stringify(threadsDir)} + '/' + tid, 'worker' + threadId);
} else {
  // Threads there before the program's first line: V8's platform threads (libuv's pool starts on first use).
  for (const tid of fs.readdirSync('/proc/self/task')) {
    if (tid !== String(process.pid)) fs.writeFileSync(${JSON.stringify(threadsDir)} + '/' + tid, 'v8');
  }
  // Requests the main thread's servers received, by the port they listen on: a --syscalls window's calls.
  const requests = {};
  const ports = new WeakMap();
  const http = require('node:http');
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (event, ...rest) {
    if (event === 'request') {
      // address() is a getsockname: once per server, not per request.
      let port = ports.get(this);
      if (port === undefined) ports.set(this, (port = this.address()?.port ?? 0));
      requests[port] = (requests[port] ?? 0) + 1;
    }
    return emit.call(this, event, ...rest);
  };
  process.on('SIGUSR2', () =>
    fs.writeFileSync(${JSON.stringify(threadsDir)} + '.requests', JSON.stringify({ at: Date.now(), requests })),
  );
}
`,
  );
}

const loopDelayDir = values['loop-delay'] ? join(logDir, 'loop-delay') : undefined;
if (loopDelayDir) {
  mkdirSync(loopDelayDir);
  addPreload(
    'loop-delay.cjs',
    `const { isMainThread } = require('node:worker_threads');
if (isMainThread) {
  const fs = require('node:fs');
  const { monitorEventLoopDelay } = require('node:perf_hooks');
  const dir = ${JSON.stringify(loopDelayDir)};
  const fd = fs.openSync('/proc/thread-self/schedstat', 'r');
  const buf = Buffer.alloc(128);
  const runNs = () => Number(buf.toString('latin1', 0, fs.readSync(fd, buf, 0, 128, 0)).split(' ')[0]);
  let state = 'waiting', ticker, histogram, lastAt, lastRun;
  const gaps = [];
  const poll = setInterval(() => {
    if (state === 'waiting' && fs.existsSync(dir + '/start')) {
      state = 'running';
      histogram = monitorEventLoopDelay({ resolution: 1 });
      histogram.enable();
      lastAt = performance.now();
      lastRun = runNs();
      ticker = setInterval(() => {
        const at = performance.now(), run = runNs();
        if (at - lastAt > 10) gaps.push([at - lastAt, (run - lastRun) / 1e6]);
        lastAt = at;
        lastRun = run;
      }, 2);
    } else if (state === 'running' && fs.existsSync(dir + '/stop')) {
      state = 'done';
      clearInterval(ticker);
      clearInterval(poll);
      histogram.disable();
      const ms = (ns) => Number((ns / 1e6).toFixed(1));
      fs.writeFileSync(dir + '/result.json', JSON.stringify({
        gaps,
        delay: { p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), p999: ms(histogram.percentile(99.9)), max: ms(histogram.max) },
      }));
    }
  }, 50);
  poll.unref();
}
`,
  );
}
/** The main thread's loop over the load, from the --loop-delay preload's notes. */
function loopDelaySummary() {
  const { gaps, delay } = JSON.parse(readFileSync(join(loopDelayDir, 'result.json'), 'utf8'));
  const round = (ms) => Number(ms.toFixed(1));
  const longest = gaps.reduce((a, b) => (b[0] > a[0] ? b : [...a]), [0, 0]);
  const longestRun = gaps.reduce((a, b) => (b[1] > a[1] ? b : [...a]), [0, 0]);
  return {
    delay,
    gapsOver20ms: gaps.filter(([wall]) => wall > 20).length,
    gapsOver50ms: gaps.filter(([wall]) => wall > 50).length,
    gapsRunningOver20ms: gaps.filter(([, run]) => run > 20).length,
    longestGap: { wallMs: round(longest[0]), runMs: round(longest[1]) },
    longestRun: { wallMs: round(longestRun[0]), runMs: round(longestRun[1]) },
  };
}

const traceDir = values['trace-requests'] ? join(logDir, 'trace') : undefined;
if (traceDir) {
  mkdirSync(traceDir);
  addPreload(
    'trace-requests.cjs',
    `const { isMainThread } = require('node:worker_threads');
const fs = require('node:fs');
const dir = ${JSON.stringify(traceDir)};
const tid = fs.readlinkSync('/proc/thread-self').split('/').pop();
if (!isMainThread) {
  // The bookkeeping worker is the first worker thread (PGlite's own, with TOLLGATE_EMBEDDED_WORKER=0).
  try { fs.writeFileSync(dir + '/worker-' + tid, ''); } catch {}
} else {
  const http = require('node:http');
  const { PerformanceObserver, performance } = require('node:perf_hooks');
  const gcs = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcs.push([e.startTime, e.duration, e.detail ? e.detail.kind : e.kind]);
  }).observe({ entryTypes: ['gc'] });
  // Thread fds opened at the first request (every thread exists by then): main, worker, the rest.
  let threads;
  const buf = Buffer.alloc(128);
  const read = (fd) => {
    const n = fs.readSync(fd, buf, 0, 128, 0);
    const [run, wait] = buf.toString('latin1', 0, n).split(' ');
    return [Number(run), Number(wait)];
  };
  const open = () => {
    const workers = fs.readdirSync(dir).filter((f) => f.startsWith('worker-')).map((f) => f.slice(7));
    const worker = workers.sort((a, b) => Number(a) - Number(b))[0];
    threads = { main: [], worker: [], others: [] };
    for (const t of fs.readdirSync('/proc/self/task')) {
      let fd;
      try { fd = fs.openSync('/proc/self/task/' + t + '/schedstat', 'r'); } catch { continue; }
      (t === tid ? threads.main : t === worker ? threads.worker : threads.others).push(fd);
    }
  };
  const sample = () => {
    if (!threads) open();
    const out = [];
    for (const group of [threads.main, threads.worker, threads.others]) {
      let run = 0, wait = 0;
      for (const fd of group) { const [r, w] = read(fd); run += r; wait += w; }
      out.push(run, wait);
    }
    return out;
  };
  const requests = [];
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (event, req, res) {
    if (event === 'request') {
      const t0 = performance.now();
      const s0 = sample();
      const port = this.address() && this.address().port;
      res.once('finish', () => {
        const s1 = sample();
        requests.push([t0, performance.now(), port, ...s1.map((v, i) => v - s0[i])]);
      });
    }
    return emit.apply(this, arguments);
  };
  process.on('exit', () => {
    fs.writeFileSync(dir + '/requests.json', JSON.stringify({ requests, gcs }));
  });
  fs.writeFileSync(dir + '/mark-origin', String(performance.timeOrigin));
}
`,
  );
}

/**
 * The gateway's requests of the load (from the trace preload), slowest 1 % and those over 2 ms against
 * the middle fifth: server-side ms, and per request the main thread's run and run-queue wait, the
 * worker's and the other threads' run (ms), GC pauses of the main thread overlapping it.
 */
function traceSummary(gatewayPort, fromMs, toMs) {
  const { requests, gcs } = JSON.parse(readFileSync(join(traceDir, 'requests.json'), 'utf8'));
  const ofGateway = requests
    .filter((r) => r[2] === gatewayPort && r[0] >= fromMs && r[1] <= toMs)
    .sort((a, b) => a[1] - a[0] - (b[1] - b[0]));
  const relay = requests.filter((r) => r[2] !== gatewayPort && r[0] >= fromMs && r[1] <= toMs);
  const gcIn = (r) => gcs.filter(([start, duration]) => start < r[1] && start + duration > r[0]);
  const describe = (rows) => {
    if (rows.length === 0) return { count: 0 };
    const mean = (f) => Number((rows.reduce((s, r) => s + f(r), 0) / rows.length).toFixed(3));
    const ns = (i) => (r) => r[i] / 1e6;
    const withGc = rows.filter((r) => gcIn(r).length > 0);
    return {
      count: rows.length,
      ms: mean((r) => r[1] - r[0]),
      mainRun: mean(ns(3)),
      mainWait: mean(ns(4)),
      workerRun: mean(ns(5)),
      workerWait: mean(ns(6)),
      othersRun: mean(ns(7)),
      othersWait: mean(ns(8)),
      withGcShare: Number((withGc.length / rows.length).toFixed(3)),
      gcMsIn: mean((r) => gcIn(r).reduce((s, [, d]) => s + d, 0)),
      workerRanShare: Number((rows.filter((r) => r[5] > 0).length / rows.length).toFixed(3)),
    };
  };
  const n = ofGateway.length;
  const pct = (p) => ofGateway[Math.min(n - 1, Math.floor((n * p) / 100))];
  const gcsInLoad = gcs.filter(([start]) => start >= fromMs && start <= toMs);
  const gcKinds = {};
  for (const [, duration, kind] of gcsInLoad) {
    const k =
      { 1: 'scavenge', 2: 'minorMarkSweep', 4: 'markCompact', 8: 'incremental', 16: 'weakCallbacks' }[kind] ??
      kind;
    gcKinds[k] ??= { count: 0, ms: 0, maxMs: 0 };
    gcKinds[k].count++;
    gcKinds[k].ms = Number((gcKinds[k].ms + duration).toFixed(2));
    gcKinds[k].maxMs = Number(Math.max(gcKinds[k].maxMs, duration).toFixed(2));
  }
  return {
    gatewayRequests: n,
    relayRequestsPerGateway: Number((relay.length / Math.max(1, n)).toFixed(2)),
    serverP50: n && Number((pct(50)[1] - pct(50)[0]).toFixed(3)),
    serverP99: n && Number((pct(99)[1] - pct(99)[0]).toFixed(3)),
    middle: describe(ofGateway.slice(Math.floor(n * 0.4), Math.floor(n * 0.6))),
    slowest1pct: describe(ofGateway.slice(Math.floor(n * 0.99))),
    over2ms: describe(ofGateway.filter((r) => r[1] - r[0] > 2)),
    mainThreadGcDuringLoad: gcKinds,
  };
}

/** The group of a platform thread: main, worker<N> (named by the preload), v8 or pool (helpers). */
function threadGroups() {
  const named = new Map(
    readdirSync(threadsDir).map((tid) => [tid, readFileSync(join(threadsDir, tid), 'utf8')]),
  );
  return (tid) => (Number(tid) === embedded.pid ? 'main' : (named.get(String(tid)) ?? 'pool'));
}

/** CPU ms of each thread of the platform now: main, worker<N> (named by the preload), helpers. */
function threadCpuMs() {
  return threadCounters().ms;
}

/**
 * Each thread group's CPU ms and its voluntary and involuntary context switches so far (`ms`: the
 * helpers together, as before; `by`: v8 and pool apart, with switches and thread counts).
 */
function threadCounters() {
  const groupOf = threadGroups();
  const ms = {};
  const by = {};
  for (const { tid, cpuMs, voluntary, involuntary } of threadsOf(embedded.pid, { switches: true })) {
    const group = groupOf(tid);
    const name = group === 'v8' || group === 'pool' ? 'helpers' : group;
    ms[name] = (ms[name] ?? 0) + cpuMs;
    const counts = (by[group] ??= { ms: 0, voluntary: 0, involuntary: 0, threads: 0 });
    counts.ms += cpuMs;
    counts.voluntary += voluntary;
    counts.involuntary += involuntary;
    counts.threads++;
  }
  return { ms, by };
}

/** Per call, each group's CPU ms and switches between two `threadCounters().by`. */
function countersPerCall(after, before, calls) {
  return Object.fromEntries(
    Object.entries(after).map(([group, now]) => {
      const then = before[group] ?? { ms: 0, voluntary: 0, involuntary: 0 };
      return [
        group,
        {
          cpuMs: Number(((now.ms - then.ms) / calls).toFixed(3)),
          voluntary: Number(((now.voluntary - then.voluntary) / calls).toFixed(3)),
          involuntary: Number(((now.involuntary - then.involuntary) / calls).toFixed(3)),
          threads: now.threads,
        },
      ];
    }),
  );
}

/** How many requests the gateway's server has received so far (the threads preload, on SIGUSR2). */
async function requestsServed() {
  const file = `${threadsDir}.requests`;
  const asked = Date.now();
  process.kill(embedded.pid, 'SIGUSR2');
  for (let i = 0; i < 300; i++) {
    await sleep(10);
    if (!existsSync(file)) continue;
    const { at, requests } = JSON.parse(readFileSync(file, 'utf8'));
    if (at >= asked) return requests[new URL(servedUrl()).port] ?? 0;
  }
  throw new Error('the platform did not report its request count');
}

/**
 * System calls per call of each thread group over `seconds` of the load: `perf trace -s` of the
 * platform's process (every thread), its per-thread summary grouped as `threadCounters` groups them.
 */
async function syscallsPerCall(seconds) {
  const groupOf = threadGroups();
  const before = await requestsServed();
  const { stderr } = await new Promise((resolvePerf, rejectPerf) => {
    const perf = spawn('perf', ['trace', '-s', '-p', String(embedded.pid)], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let text = '';
    perf.stderr.on('data', (chunk) => (text += chunk));
    perf.once('error', rejectPerf);
    perf.once('exit', () => resolvePerf({ stderr: text }));
    setTimeout(() => perf.kill('SIGINT'), seconds * 1000);
  });
  const calls = (await requestsServed()) - before;
  const counts = {};
  let group;
  for (const line of stderr.split('\n')) {
    const thread = /^\s*\S+ \((\d+)\), \d+ events/.exec(line);
    if (thread) {
      group = groupOf(thread[1]);
      continue;
    }
    const row = /^\s+([a-z_0-9]+)\s+(\d+)\s+\d+\s+[\d.]+/.exec(line);
    if (row && group && row[1] !== 'syscall') {
      const ofGroup = (counts[group] ??= { total: 0 });
      ofGroup[row[1]] = (ofGroup[row[1]] ?? 0) + Number(row[2]);
      ofGroup.total += Number(row[2]);
    }
  }
  const perCall = Object.fromEntries(
    Object.entries(counts).map(([name, calls_]) => [
      name,
      Object.fromEntries(
        Object.entries(calls_)
          .sort((a, b) => b[1] - a[1])
          .map(([syscall, n]) => [syscall, Number((n / Math.max(calls, 1)).toFixed(3))]),
      ),
    ]),
  );
  return { seconds, calls, perCall };
}
const diffMs = (after, before) =>
  Object.fromEntries(Object.entries(after).map(([name, ms]) => [name, ms - (before[name] ?? 0)]));

const breakdownDir = values.breakdown ? join(logDir, 'breakdown') : undefined;
if (breakdownDir) {
  mkdirSync(breakdownDir);
  // Every thread (workers inherit --require) answers a broadcast with its V8 heap and its modules.
  addPreload(
    'breakdown.cjs',
    `const { BroadcastChannel, isMainThread, threadId } = require('node:worker_threads');
const v8 = require('node:v8');
const fs = require('node:fs');
const channel = new BroadcastChannel('bench-embedded-memory-breakdown');
channel.unref();
const write = (label) => {
  const heap = v8.getHeapStatistics();
  const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, s.physical_space_size]));
  const modules = Object.keys(require.cache);
  const packages = {};
  let sourceBytes = 0;
  for (const file of modules) {
    try { sourceBytes += fs.statSync(file).size; } catch {}
    const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(file);
    const name = m ? m[1] : file.includes('/dist/') ? '(workspace)' : '(other)';
    packages[name] = (packages[name] || 0) + 1;
  }
  fs.writeFileSync(${JSON.stringify(breakdownDir)} + '/' + label + '-' + threadId + '.json', JSON.stringify({
    thread: isMainThread ? 'main' : require('node:worker_threads').workerData && require('node:worker_threads').workerData.dataDirs ? 'pglite' : 'worker' + threadId,
    heapPhysical: heap.total_physical_size, heapUsed: heap.used_heap_size, heapTotal: heap.total_heap_size,
    external: heap.external_memory, mallocked: heap.malloced_memory, spaces, modules: modules.length, sourceBytes, packages,
  }));
};
channel.onmessage = (event) => write(event.data);
if (isMainThread) process.on('SIGUSR2', () => { const label = fs.readFileSync(${JSON.stringify(join(breakdownDir, 'label'))}, 'utf8'); channel.postMessage(label); write(label); });
`,
  );
}

/** RSS of one process by kind of mapping, MB, from /proc/<pid>/smaps. */
function smapsByKind(pid) {
  const kinds = { wasm: 0, mallocHeap: 0, anonymous: 0, file: 0, stacks: 0 };
  // PGlite's WASM memory is one anonymous mapping of its whole size (128 MB and up, in steps of 64 KiB
  // pages), touched only where written; V8's heap pages are 256 KiB, malloc's arenas 64 MB.
  let kind;
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (head) {
      const size = Number(BigInt(`0x${head[2]}`) - BigInt(`0x${head[1]}`));
      const name = head[3];
      // A WASM memory reserves its address space with guard regions: gigabytes for one mapping.
      if (name === '' && size >= 128 * 2 ** 20 && size !== 64 * 2 ** 20) kind = 'wasm';
      else if (name === '[heap]') kind = 'mallocHeap';
      else if (name.startsWith('[stack')) kind = 'stacks';
      else if (name === '' || name.startsWith('[')) kind = 'anonymous';
      else kind = 'file';
    } else if (line.startsWith('Rss:')) kinds[kind] += Number(line.split(/\s+/)[1]) * 1024;
  }
  return Object.fromEntries(Object.entries(kinds).map(([k, v]) => [k, mb(v)]));
}

/** Where the RSS is now: smaps by kind and each thread's V8 heap and modules. */
async function breakdown(label) {
  if (!breakdownDir) return undefined;
  writeFileSync(join(breakdownDir, 'label'), label);
  process.kill(embedded.pid, 'SIGUSR2');
  await sleep(1_000);
  const threads = readdirSync(breakdownDir)
    .filter((name) => name.startsWith(`${label}-`))
    .map((name) => JSON.parse(readFileSync(join(breakdownDir, name), 'utf8')))
    .map(({ packages, spaces, ...rest }) => ({
      ...Object.fromEntries(
        Object.entries(rest).map(([k, v]) => [k, typeof v === 'number' && k !== 'modules' ? mb(v) : v]),
      ),
      codeSpace: mb(spaces.code_space ?? 0),
      largeObjectSpace: mb((spaces.large_object_space ?? 0) + (spaces.code_large_object_space ?? 0)),
      newSpace: mb(spaces.new_space ?? 0),
      topPackages: Object.entries(packages)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 12)
        .map(([name, count]) => `${name}:${count}`)
        .join(' '),
    }));
  return { rss: rss(), smaps: smapsByKind(embedded.pid), threads };
}

const upstream = await startFakeUpstream({ logDir });
const realNode = process.execPath;
let embedded;
try {
  const root = values.root && resolve(values.root);
  if (root && !existsSync(join(root, 'bench', 'lib', 'embedded-platform.mjs')))
    throw new Error(`--root ${root}: no bench/lib/embedded-platform.mjs there`);
  if (nodeArgs.length > 0 || platformEnv.length > 0 || root) {
    const wrapper = join(logDir, 'node-with-flags.sh');
    const exports =
      (profileDir
        ? `export BENCH_CPU_PROFILE_DIR=${JSON.stringify(profileDir)} BENCH_CPU_PROFILE_SERVICES=embedded,${PGLITE_WORKER}\n`
        : '') + platformEnv.join('');
    writeFileSync(
      wrapper,
      `#!/bin/sh\n${exports}` +
        // The platform's script is this checkout's; --root swaps it for the other's, which loads its own build.
        (root
          ? `shift\nset -- ${JSON.stringify(join(root, 'bench', 'lib', 'embedded-platform.mjs'))} "$@"\n`
          : '') +
        `exec ${JSON.stringify(realNode)} ${nodeArgs.map((a) => JSON.stringify(a)).join(' ')} "$@"\n`,
    );
    chmodSync(wrapper, 0o755);
    process.execPath = wrapper;
  }
  embedded = await startEmbeddedTollgate({ upstreamUrl: upstream.url, logDir, runId: 'memory' });
} finally {
  process.execPath = realNode;
}

const rss = () => mb(treeRss({ embedded: embedded.pid }).embedded);
/** Relay's own loopback port, as the platform's log names it: --direct-relay loads it without the gateway. */
const relayUrl = () => {
  const named = /relay on (http:\/\/[^\s]+)/.exec(
    readFileSync(join(logDir, 'tollgate-embedded.log'), 'utf8'),
  );
  if (!named) throw new Error('the platform log names no relay URL');
  return named[1];
};
/** Where the load goes: the gateway, or relay's own port with --direct-relay. */
const servedUrl = () => (values['direct-relay'] ? relayUrl() : embedded.url);
const cpuTicks = () => {
  const table = processTable();
  return [...treeOf(table, embedded.pid)].reduce((sum, pid) => sum + table.get(pid).ticks, 0);
};
/** CPU ms per second of wall time over `ms` of doing nothing. */
const idleCpu = async (ms) => {
  const before = cpuTicks();
  const started = performance.now();
  await sleep(ms);
  const cpuMs = ((cpuTicks() - before) * 1000) / CLOCK_TICKS;
  return Math.round((cpuMs / (performance.now() - started)) * 1000);
};

let stopped = false;
/** Wall-clock ms when the load started and ended. */
let loadWindow;
try {
  // Start-up and seeding settle first (the first outbox rounds, JIT, the seeding's own garbage).
  await sleep(5_000);
  if (profileDir && !profileLoad) writeFileSync(join(profileDir, 'start'), '');
  const idleThreadsBefore = threadsDir && threadCpuMs();
  const idleCountersBefore = threadsDir && threadCounters().by;
  const idleCpuMsPerS = await idleCpu(idleMs);
  // Per second of the idle window, as countersPerCall gives them per call.
  const idlePerS = threadsDir && countersPerCall(threadCounters().by, idleCountersBefore, idleMs / 1000);
  const idleThreadMsPerS =
    threadsDir &&
    Object.fromEntries(
      Object.entries(diffMs(threadCpuMs(), idleThreadsBefore)).map(([name, ms]) => [
        name,
        (ms * 1000) / idleMs,
      ]),
    );
  const idle = rss();
  const idleBreakdown = await breakdown('idle');
  if (profileDir && !profileLoad) {
    // The preload writes the profile when the process is told to stop.
    await embedded.stop();
    stopped = true;
    const profiles = readdirSync(profileDir).filter((name) => name.endsWith('.cpuprofile'));
    const summaryOf = (file) => file && summarizeCpuProfile(join(profileDir, file), { top: 25 });
    const isWorker = (name) => name.startsWith(`${PGLITE_WORKER}.`);
    console.log(
      JSON.stringify(
        {
          nodeFlags: values['node-flags'],
          idleMb: idle,
          idleCpuMsPerS,
          profile: summaryOf(profiles.find((name) => !isWorker(name))),
          pgliteWorkerProfile: summaryOf(profiles.find(isWorker)),
        },
        null,
        1,
      ),
    );
  }
  let load;
  let peak;
  let threads;
  let switchesPerCall;
  let syscalls;
  let profiles;
  if (!values['no-load'] && !stopped) {
    const sampler = sampleRss({ embedded: embedded.pid });
    const threadsBefore = threadsDir && threadCpuMs();
    const countersBefore = threadsDir && threadCounters().by;
    const tracing = values.syscalls && sleep(5_000).then(() => syscallsPerCall(Number(values.syscalls)));
    if (profileLoad) writeFileSync(join(profileDir, 'start'), '');
    if (loopDelayDir) writeFileSync(join(loopDelayDir, 'start'), '');
    loadWindow = [Date.now()];
    load = await runChatLoad(
      {
        url: `${servedUrl()}/v1/chat/completions`,
        headers: { authorization: `Bearer ${embedded.customer.apiKey}` },
        model: embedded.customer.model,
        processes: { own: { embedded: embedded.pid } },
      },
      { vus: Number(values.vus), durationSeconds: Number(values.load) },
    );
    loadWindow.push(Date.now());
    if (tracing) syscalls = await tracing;
    if (loopDelayDir) writeFileSync(join(loopDelayDir, 'stop'), '');
    peak = mb(sampler.stop().embedded);
    if (threadsDir) {
      const served = load.served || 1;
      const overLoad = diffMs(threadCpuMs(), threadsBefore);
      switchesPerCall = countersPerCall(threadCounters().by, countersBefore, served);
      await sleep(3_000);
      const withDrain = diffMs(threadCpuMs(), threadsBefore);
      const perCall = (ms) => Number((ms / served).toFixed(3));
      threads = Object.fromEntries(
        Object.keys(withDrain).map((name) => [
          name,
          {
            load: perCall(overLoad[name] ?? 0),
            loadAndDrain: perCall(withDrain[name] - ((idleThreadMsPerS[name] ?? 0) * 3_000) / 1000),
            idleMsPerS: Math.round(idleThreadMsPerS[name] ?? 0),
          },
        ]),
      );
    }
    if (profileLoad) {
      writeFileSync(join(profileDir, 'stop'), '');
      await sleep(2_000);
      profiles = Object.fromEntries(
        readdirSync(profileDir)
          .filter((name) => name.endsWith('.cpuprofile'))
          .map((name) => [
            name.split('.')[0],
            groupCpuProfile(join(profileDir, name), { calls: load.served }),
          ]),
      );
    }
  }
  const afterLoadBreakdown = load ? await breakdown('after-load') : undefined;
  const afterCpuMsPerS = load ? await idleCpu(idleMs) : undefined;
  if (!stopped)
    console.log(
      JSON.stringify({
        nodeFlags: values['node-flags'],
        env: values.env,
        idleMb: idle,
        idleCpuMsPerS,
        ...(values.root && { root: values.root }),
        ...(idleBreakdown && { idleBreakdown, afterLoadBreakdown }),
        ...(load && {
          underLoadPeakMb: peak,
          idleAfterLoadMb: rss(),
          idleAfterLoadCpuMsPerS: afterCpuMsPerS,
          load: {
            vus: Number(values.vus),
            seconds: Number(values.load),
            rps: Math.round(load.rps),
            errorRate: load.errorRate,
            p50: load.p50,
            p99: load.p99,
            cpuMsPerCall: load.cpu && Number(load.cpu.ownPerCall.toFixed(3)),
          },
          ...(threads && { threadCpuMsPerCall: threads }),
          ...(switchesPerCall && { threadsPerCall: switchesPerCall, threadsIdlePerS: idlePerS }),
          ...(syscalls && { syscalls }),
          ...(loopDelayDir && { mainLoop: loopDelaySummary() }),
        }),
        logDir,
      }),
    );
  if (profiles) console.log(JSON.stringify({ profilesMsPerCall: profiles }, null, 1));
} finally {
  if (!stopped) await embedded.stop();
  await upstream.stop();
}
if (traceDir && loadWindow?.length === 2) {
  // The platform wrote its trace when it exited; its performance.now() counts from its timeOrigin.
  const origin = Number(readFileSync(join(traceDir, 'mark-origin'), 'utf8'));
  const gatewayPort = Number(new URL(embedded.url).port);
  console.log(
    JSON.stringify({
      requestTrace: traceSummary(gatewayPort, loadWindow[0] - origin, loadWindow[1] - origin),
    }),
  );
}
