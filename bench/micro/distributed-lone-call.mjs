#!/usr/bin/env node
// Distributed mode on one machine (issue 17, H50): what a lone call's slow 1 % waits for, and how the
// bookkeeping services' (auth, billing, admin, chat) nice value moves latency and throughput.
//
// One platform (bench/lib/platform.mjs: every service its own process, one worker each unless
// --workers) on the PostgreSQL, Redis and Kafka of `scripts/infra.sh env`, calls from this process
// (undici, keep-alive, closed loop at each --concurrency). Each round runs every variant once, in an
// order that alternates (A B, B A, …), on the same platform: a variant `B/I` sets the nice value of
// every thread of the bookkeeping services to B and of PostgreSQL and Kafka (the servers, not Redis,
// which relay waits on) to I before its window; `idle` for B or I is SCHED_IDLE (chrt) instead of a
// nice value (h129). The launcher sets the bookkeeping's at start-up (TOLLGATE_BOOKKEEPING_NICE); here
// it is set again per window, so both variants run on one platform.
// Use a private infrastructure for infra nice values other than 0 (TOLLGATE_INFRA_DIR): they are
// restored to 0 at the end, but others' tests would share the lowered servers meanwhile.
//
//   export TOLLGATE_INFRA_DIR=/tmp/h50-infra; bash scripts/infra.sh up && eval "$(bash scripts/infra.sh env)"
//   node bench/micro/distributed-lone-call.mjs [--root DIR] [--variants 0/0,10/0] [--concurrency 1,16]
//     [--seconds 10] [--rounds 3] [--warmup 20] [--perf] [--switches] [--strace] [--direct]
//     [--kafka-gc-log FILE] [--before-window COMMAND] [--out FILE.json] [--help]
//     [--env NAME=VALUE ...] [--log-dir DIR]   (every service's environment, e.g. NODE_OPTIONS=--trace-gc;
//     the services' logs kept in DIR)
//
// Per window: calls, p50/p99/max of the call's time at the client, req/s, CPU ms per call of every
// process tree (from /proc, ticks). With --perf (root, `perf` installed), the c=1 windows are recorded by
// `perf sched record` (CLOCK_MONOTONIC, the clock of performance.now()'s origin) and for the slowest
// 1 % of calls and for the middle ones it prints what ran on the CPUs during the call, per process,
// and how long gateway's and relay's threads waited runnable (scheduling delay). Compare variants only
// within a round; a shared machine moves everything between rounds.
// It also gives the same per thread (`byThread`: a process's main thread, a JVM's or V8's other threads
// by name, e.g. `kafka: CN CompilerThre`, `kafka: GC Thread#N`, `billing: node` for V8's helpers,
// PostgreSQL's processes by title: `postgres: backend`, `postgres: walwriter`, …) (h129).
//
// --direct (h129): after each round's variants, a window of the same calls straight at the fake
// upstream, the bench's `direct` target: its p99 moves with the machine, so read Tollgate's against it.
// --before-window COMMAND (h129): run by sh before each window with the variant's name as $1; a variant
// `B/I:label` is B/I with a label, so a run can alternate something else on one platform (e.g. a
// setting a service's preload watches a file for).
// The broker's GC pauses in each window (count, sum, longest) are read from its `-Xlog:gc` file,
// <TOLLGATE_INFRA_DIR>/kafka/logs/gc.log as scripts/infra/kafka/broker.sh writes it, or --kafka-gc-log.
//
// With --switches (H60), each window also prints the context switches per call of every process tree
// (voluntary: the thread slept and was woken, i.e. a wake-up; involuntary: it was preempted), from
// /proc/<pid>/task/*/status, and per thread name (task/*/comm, digits folded: `node`, `libuv-worker`,
// `V8 DefaultWorke`, PostgreSQL's backends by their title, Kafka's `data-plane-kafka-requ` …). Unlike
// CPU time, the count of wake-ups per call does not depend on how loaded the machine is. With --strace,
// a second window per concurrency runs with `strace -c -f` attached to every Tollgate process and prints
// its system calls per call (strace slows the processes: read counts, not times). Concurrency 0 is an
// idle window: every figure of it is per second instead of per call (what the platform does unasked).
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chatCallBody } from '../lib/chat-calls.mjs';
import { infrastructureFromEnv } from '../lib/infra.mjs';
import { log } from '../lib/log.mjs';
import { startFakeUpstream, startTollgate } from '../lib/platform.mjs';
import { UPSTREAM_KEY, UPSTREAM_MODEL } from '../lib/seed.mjs';
import { CLOCK_TICKS, infrastructurePids, processTable, threadsOf, treeOf } from '../lib/proc.mjs';
import { workspacePackage } from '../lib/workspace.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const { values: args } = parseArgs({
  options: {
    root: { type: 'string', default: join(HERE, '..', '..') },
    variants: { type: 'string', default: '0/0,10/0' },
    concurrency: { type: 'string', default: '1' },
    seconds: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '20' },
    workers: { type: 'string', default: '1' },
    perf: { type: 'boolean', default: false },
    switches: { type: 'boolean', default: false },
    strace: { type: 'boolean', default: false },
    direct: { type: 'boolean', default: false },
    'kafka-gc-log': { type: 'string' },
    'before-window': { type: 'string' },
    help: { type: 'boolean', default: false },
    env: { type: 'string', multiple: true, default: [] },
    'log-dir': { type: 'string' },
    out: { type: 'string' },
  },
});

if (args.help) {
  // The manual is this file's opening comment.
  const source = readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n');
  const manual = source.slice(
    1,
    source.findIndex((line, i) => i > 0 && !line.startsWith('//')),
  );
  console.log(manual.map((line) => line.replace(/^\/\/ ?/, '')).join('\n'));
  process.exit(0);
}

const BOOKKEEPING = ['auth', 'billing', 'admin', 'chat'];
const variants = args.variants.split(',').map((v) => {
  // A value is a nice value, or `idle`: SCHED_IDLE (the thread runs only when no other wants the core).
  // After a `:`, a label the --before-window command is given (variants that differ in something else).
  const [bookkeeping, infra = '0'] = v
    .split(':')[0]
    .split('/')
    .map((x) => (x === 'idle' ? x : Number(x)));
  return { name: v, bookkeeping, infra };
});
const usesIdle = variants.some((v) => v.bookkeeping === 'idle' || v.infra === 'idle');
const concurrencies = args.concurrency.split(',').map(Number);
const seconds = Number(args.seconds);
const rounds = Number(args.rounds);

const infra = infrastructureFromEnv();
const workDir = mkdtempSync(join(tmpdir(), 'distributed-lone-call-'));
// The services' logs (e.g. --env NODE_OPTIONS=--trace-gc): kept in --log-dir, else removed with workDir.
const logDir = args['log-dir'] ?? workDir;
const extraEnv = Object.fromEntries(
  args.env.map((pair) => {
    const at = pair.indexOf('=');
    if (at < 1) throw new Error(`--env takes NAME=VALUE, got "${pair}"`);
    return [pair.slice(0, at), pair.slice(at + 1)];
  }),
);
const runId = randomBytes(3).toString('hex');
const { Pool } = workspacePackage('undici', args.root);

/** Every thread of every process in `pids`' trees to `nice`, or to SCHED_IDLE for `idle` (chrt). */
function renice(rootPids, nice) {
  const table = processTable();
  for (const root of rootPids)
    for (const pid of treeOf(table, root))
      for (const { tid } of threadsOf(pid)) {
        try {
          // Back to the normal policy first when a variant of this run uses SCHED_IDLE.
          if (nice === 'idle' || usesIdle)
            execFileSync('chrt', [nice === 'idle' ? '--idle' : '--other', '-p', '0', tid], {
              stdio: 'ignore',
            });
          if (nice !== 'idle') setPriority(Number(tid), nice);
        } catch {
          // gone
        }
      }
}

/** pid → group name, for every process of the platform, the infrastructure, the upstream and this one. */
function groupsOf(roots) {
  const table = processTable();
  const groups = new Map();
  // This process alone: the services are its children, and their trees are their own groups.
  groups.set(process.pid, 'client');
  for (const [name, root] of Object.entries(roots))
    for (const pid of treeOf(table, root)) if (!groups.has(pid)) groups.set(pid, name);
  return groups;
}

/**
 * pid → what the process is, for the processes whose threads all carry one name: PostgreSQL's
 * (`walwriter`, `checkpointer`, `autovacuum launcher`, … from their titles; a backend is `backend`).
 */
function processTitles(groups) {
  const titles = new Map();
  for (const [pid, group] of groups) {
    if (group !== 'postgres') continue;
    try {
      const title = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0+$/, '').replace(/\0/g, ' ');
      const what = /^postgres: (.*)$/.exec(title)?.[1] ?? 'postmaster';
      titles.set(pid, what.includes('(') ? 'backend' : what.replace(/\d+/g, 'N'));
    } catch {
      // gone
    }
  }
  return titles;
}

/**
 * The broker's GC log (scripts/infra/kafka/broker.sh writes `-Xlog:gc` to <state>/logs/gc.log): the
 * offset reached so far, and the pauses logged since an offset (count, sum, longest, ms).
 */
function kafkaGcLogFile() {
  if (args['kafka-gc-log']) return args['kafka-gc-log'];
  const dir = process.env.TOLLGATE_INFRA_DIR;
  return dir ? join(dir, 'kafka', 'logs', 'gc.log') : undefined;
}
function gcLogOffset(file) {
  try {
    return statSync(file).size;
  } catch {
    return undefined;
  }
}
function gcPausesSince(file, offset) {
  if (offset === undefined) return undefined;
  let text;
  try {
    const all = readFileSync(file);
    // A rotated log starts again from 0.
    text = all.subarray(all.length >= offset ? offset : 0).toString('utf8');
  } catch {
    return undefined;
  }
  const pauses = [];
  for (const m of text.matchAll(/ Pause ([A-Za-z]+)[^\n]*? ([\d.]+)ms$/gm)) pauses.push(Number(m[2]));
  return {
    count: pauses.length,
    sumMs: Number(pauses.reduce((a, b) => a + b, 0).toFixed(2)),
    maxMs: Number(Math.max(0, ...pauses).toFixed(2)),
  };
}

function cpuByGroup(groups) {
  const table = processTable();
  const out = {};
  for (const [pid, name] of groups) out[name] = (out[name] ?? 0) + (table.get(pid)?.ticks ?? 0);
  return out;
}

const TOLLGATE = ['gateway', 'relay', 'auth', 'billing', 'admin', 'chat'];

/**
 * Context switches so far of every thread of every process in `groups`: group → thread name →
 * { voluntary, involuntary }. Digits in thread names are folded (`libuv-worker`, PostgreSQL's
 * `postgres` backends alike), so threads that come and go count under one name. A thread that ended
 * within a window takes its switches with it: a lower bound for pools that shrink.
 */
function contextSwitches(groups) {
  const out = {};
  for (const [pid, group] of groups) {
    for (const { tid, name, voluntary, involuntary } of threadsOf(pid, { switches: true })) {
      // Node names none of its threads: its main thread (the event loop) apart from the others.
      const thread = name === 'node' ? (tid === String(pid) ? 'main' : 'other') : name.replace(/\d+/g, 'N');
      out[`${group}\t${thread}\t${pid}/${tid}`] = { voluntary, involuntary };
    }
  }
  return out;
}

/** Per call, by group and by group + thread name, from two contextSwitches() snapshots. */
function switchesPerCall(before, after, calls) {
  const byGroup = {};
  const byThread = {};
  for (const [key, now] of Object.entries(after)) {
    const [group, name] = key.split('\t');
    const then = before[key] ?? { voluntary: 0, involuntary: 0 };
    const vol = now.voluntary - then.voluntary;
    const invol = now.involuntary - then.involuntary;
    const g = (byGroup[group] ??= { vol: 0, invol: 0 });
    g.vol += vol;
    g.invol += invol;
    const t = (byThread[`${group}/${name}`] ??= { vol: 0, invol: 0, threads: 0 });
    t.vol += vol;
    t.invol += invol;
    t.threads += 1;
  }
  const round = (o) => ({
    ...o,
    vol: Number((o.vol / calls).toFixed(3)),
    invol: Number((o.invol / calls).toFixed(3)),
  });
  return {
    byGroup: Object.fromEntries(Object.entries(byGroup).map(([k, v]) => [k, round(v)])),
    byThread: Object.fromEntries(
      Object.entries(byThread)
        .filter(([, v]) => v.vol + v.invol > 0)
        .map(([k, v]) => [k, round(v)])
        .sort((a, b) => b[1].vol - a[1].vol),
    ),
  };
}

/** Starts `strace -c -f` on every process of each Tollgate service; stop() → service → syscall → count. */
async function startStrace(groups) {
  const tracers = [];
  for (const [pid, group] of groups) {
    if (!TOLLGATE.includes(group)) continue;
    const file = join(workDir, `strace-${group}-${pid}.txt`);
    const child = spawn('strace', ['-c', '-f', '-q', '-o', file, '-p', String(pid)], { stdio: 'ignore' });
    tracers.push({ group, file, child });
  }
  // strace attaches to each thread in turn; give it a moment before the window starts.
  await new Promise((r) => setTimeout(r, 1500));
  return {
    async stop() {
      for (const { child } of tracers) child.kill('SIGINT');
      await Promise.all(
        tracers.map(({ child }) => (child.exitCode === null ? once(child, 'exit') : undefined)),
      );
      const out = {};
      for (const { group, file } of tracers) {
        let text = '';
        try {
          text = readFileSync(file, 'utf8');
        } catch {
          continue;
        }
        const counts = (out[group] ??= {});
        // % time, seconds, usecs/call, calls, [errors,] syscall
        for (const line of text.split('\n')) {
          const m = /^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?([a-z_0-9]+)\s*$/.exec(line);
          if (m && m[2] !== 'total') counts[m[2]] = (counts[m[2]] ?? 0) + Number(m[1]);
        }
      }
      return out;
    },
  };
}

function printSwitches(label, switches) {
  const fmt = (o) => `${o.vol}${o.invol >= 0.05 ? `+${o.invol}i` : ''}`;
  log(
    `${label} switches/call (voluntary[+involuntary i]): ` +
      Object.entries(switches.byGroup)
        .filter(([, v]) => v.vol + v.invol > 0)
        .map(([k, v]) => `${k} ${fmt(v)}`)
        .join(', '),
  );
  log(
    `${label}   by thread: ` +
      Object.entries(switches.byThread)
        .filter(([, v]) => v.vol >= 0.02)
        .map(([k, v]) => `${k}${v.threads > 1 ? `(x${v.threads})` : ''} ${fmt(v)}`)
        .join(', '),
  );
}

async function window({ url, customer, concurrency, direct = false }) {
  if (concurrency === 0) {
    // An idle window: what every process does per second with no calls.
    await new Promise((r) => setTimeout(r, seconds * 1000));
    return { calls: [], failed: 0, elapsed: seconds };
  }
  const pool = new Pool(new URL(url).origin, { connections: concurrency, pipelining: 1 });
  // direct: the same call straight at the fake upstream, as the bench's `direct` target sends it.
  const body = chatCallBody(direct ? UPSTREAM_MODEL : customer.model);
  const headers = {
    authorization: `Bearer ${direct ? UPSTREAM_KEY : customer.apiKey}`,
    'content-type': 'application/json',
  };
  const calls = [];
  let failed = 0;
  const deadline = performance.now() + seconds * 1000;
  async function worker() {
    while (performance.now() < deadline) {
      const start = performance.now();
      const res = await pool.request({ path: '/v1/chat/completions', method: 'POST', headers, body });
      await res.body.text();
      const end = performance.now();
      if (res.statusCode !== 200) failed++;
      else calls.push([start, end]);
    }
  }
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (performance.now() - started) / 1000;
  await pool.close();
  return { calls, failed, elapsed };
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/** A window's calls (`[start, end]` ms each) as the rows report them: count, rate, p50, p99, longest. */
function callTimes(calls, elapsedSeconds) {
  const sorted = calls.map(([start, end]) => end - start).sort((a, b) => a - b);
  if (sorted.length === 0) sorted.push(0);
  return {
    calls: calls.length,
    rps: Math.round(calls.length / elapsedSeconds),
    p50: Number(quantile(sorted, 0.5).toFixed(3)),
    p99: Number(quantile(sorted, 0.99).toFixed(3)),
    max: Number(sorted[sorted.length - 1].toFixed(3)),
  };
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** `perf sched timehist` lines: switch-out time, task, pid, run time and the scheduling delay before it. */
function readTimehist(file) {
  const text = execFileSync('perf', ['sched', 'timehist', '-i', file], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const rows = [];
  const re = /^\s*(\d+\.\d+)\s+\[(\d+)\]\s+(.*)\[(\d+)(?:\/(\d+))?\]\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)/;
  for (const line of text.split('\n')) {
    const m = re.exec(line);
    if (!m) continue;
    const end = Number(m[1]) * 1000;
    const run = Number(m[8]);
    rows.push({
      start: end - run,
      end,
      name: m[3].trim(),
      tid: Number(m[4]),
      pid: Number(m[5] ?? m[4]),
      delay: Number(m[7]),
    });
  }
  return rows;
}

/**
 * For each call, ms each group ran on the CPUs during it, and the scheduling delay of gateway's and
 * relay's threads switched in during it; averaged over the slowest 1 % and over the middle 10 %.
 */
function attribute(calls, rows, groups, titles, originMs) {
  rows.sort((a, b) => a.start - b.start);
  const groupOf = (row) => {
    const g = groups.get(row.pid);
    if (g) return row.tid === row.pid || !['gateway', 'relay'].includes(g) ? g : `${g} (other threads)`;
    if (row.name === '<idle>') return 'idle';
    if (/^(kworker|ksoftirq|migration|rcu|kthreadd|irq\/)/.test(row.name)) return 'kernel';
    return `other: ${row.name.replace(/\d+/g, 'N')}`;
  };
  // Which thread of a group: a process's main thread, a JVM's or V8's named threads (digits folded),
  // PostgreSQL's processes by title.
  const threadOf = (row, group) => {
    if (group === 'postgres') return titles.get(row.pid) ?? 'postgres';
    if (row.tid === row.pid) return 'main';
    return row.name.replace(/\d+/g, 'N');
  };
  const byDuration = calls
    .map(([s, e]) => ({ start: s + originMs, end: e + originMs, ms: e - s }))
    .sort((a, b) => a.ms - b.ms);
  const slow = byDuration.slice(Math.floor(byDuration.length * 0.99));
  const middle = byDuration.slice(Math.floor(byDuration.length * 0.45), Math.floor(byDuration.length * 0.55));
  const summarize = (set) => {
    const ran = {};
    const byThread = {};
    const delay = {};
    for (const call of set) {
      // rows are sorted by start; a run that started up to 1 s before the call may overlap it
      let lo = 0;
      let hi = rows.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (rows[mid].start < call.start - 1000) lo = mid + 1;
        else hi = mid;
      }
      for (let i = lo; i < rows.length && rows[i].start < call.end; i++) {
        const row = rows[i];
        const overlap = Math.min(row.end, call.end) - Math.max(row.start, call.start);
        if (overlap <= 0) continue;
        const g = groupOf(row);
        ran[g] = (ran[g] ?? 0) + overlap;
        const group = groups.get(row.pid);
        if (group) {
          const t = `${group}: ${threadOf(row, group)}`;
          byThread[t] = (byThread[t] ?? 0) + overlap;
        }
        if (row.start >= call.start && /^(gateway|relay|client)/.test(g))
          delay[g] = (delay[g] ?? 0) + row.delay;
      }
    }
    const per = (o) =>
      Object.fromEntries(
        Object.entries(o)
          .map(([k, v]) => [k, Number((v / set.length).toFixed(3))])
          .sort((a, b) => b[1] - a[1]),
      );
    return {
      calls: set.length,
      callMs: Number(median(set.map((c) => c.ms)).toFixed(3)),
      ran: per(ran),
      delay: per(delay),
      byThread: Object.fromEntries(Object.entries(per(byThread)).filter(([, v]) => v >= 0.01)),
    };
  };
  return { slowest1pct: summarize(slow), middle10pct: summarize(middle) };
}

async function main() {
  const upstream = await startFakeUpstream({ logDir: workDir });
  const started = await startTollgate({
    infra,
    upstreamUrl: upstream.url,
    workers: args.workers,
    logDir,
    runId,
    root: args.root,
    extraEnv,
  });
  const results = { args, windows: [] };
  const infraPids = infrastructurePids(infra, log);
  const services = Object.fromEntries(
    Object.entries(started.platform.services).map(([name, service]) => [name, service.pid]),
  );
  const roots = { ...services, ...infraPids, upstream: upstream.pid };
  const niceRoots = {
    bookkeeping: BOOKKEEPING.map((s) => services[s]),
    infra: [infraPids.postgres, infraPids.kafka].filter(Boolean),
  };
  try {
    log(`warming up ${args.warmup} s`);
    const warm = Date.now() + Number(args.warmup) * 1000;
    while (Date.now() < warm)
      await window({ url: started.platform.url, customer: started.customer, concurrency: 4 }).catch(() => {});
    for (let round = 1; round <= rounds; round++) {
      for (const concurrency of concurrencies) {
        const order = round % 2 ? variants : [...variants].reverse();
        for (const variant of order) {
          renice(niceRoots.bookkeeping, variant.bookkeeping);
          renice(niceRoots.infra, variant.infra);
          if (args['before-window'])
            execFileSync('sh', ['-c', args['before-window'], 'before-window', variant.name], {
              stdio: 'inherit',
            });
          const groups = groupsOf(roots);
          const titles = processTitles(groups);
          const gcLog = kafkaGcLogFile();
          const gcOffset = gcLog && gcLogOffset(gcLog);
          const perfFile = join(
            workDir,
            `sched-${round}-${concurrency}-${variant.bookkeeping}-${variant.infra}.data`,
          );
          const recording =
            args.perf && concurrency === 1
              ? spawn(
                  'perf',
                  [
                    'sched',
                    'record',
                    '-k',
                    'CLOCK_MONOTONIC',
                    '-o',
                    perfFile,
                    '--',
                    'sleep',
                    String(seconds + 2),
                  ],
                  {
                    stdio: 'ignore',
                  },
                )
              : undefined;
          if (recording) await new Promise((r) => setTimeout(r, 1000));
          const before = cpuByGroup(groups);
          const switchesBefore = args.switches ? contextSwitches(groups) : undefined;
          const load = await loadavg();
          const { calls, failed, elapsed } = await window({
            url: started.platform.url,
            customer: started.customer,
            concurrency,
          });
          const after = cpuByGroup(groups);
          const kafkaGc = gcLog && gcPausesSince(gcLog, gcOffset);
          const switchesAfter = args.switches ? contextSwitches(groups) : undefined;
          // c=0 is an idle window: its figures are per second instead of per call.
          const per = concurrency === 0 ? elapsed : calls.length;
          const cpu = Object.fromEntries(
            Object.keys(after).map((g) => [
              g,
              Number((((after[g] - (before[g] ?? 0)) * 1000) / CLOCK_TICKS / per).toFixed(3)),
            ]),
          );
          const row = {
            round,
            concurrency,
            variant: variant.name,
            load,
            ...callTimes(calls, elapsed),
            failed,
            cpuPerCall: cpu,
            ...(kafkaGc ? { kafkaGc } : {}),
            ...(switchesAfter ? { switches: switchesPerCall(switchesBefore, switchesAfter, per) } : {}),
          };
          if (recording) {
            await new Promise((r) => recording.once('exit', r));
            // performance.now() + this = the monotonic clock's ms (perf's -k CLOCK_MONOTONIC).
            const offset = Number(process.hrtime.bigint()) / 1e6 - performance.now();
            row.attribution = attribute(calls, readTimehist(perfFile), groups, titles, offset);
            rmSync(perfFile, { force: true });
          }
          results.windows.push(row);
          const own = ['gateway', 'relay', 'auth', 'billing', 'admin', 'chat'].reduce(
            (a, g) => a + (cpu[g] ?? 0),
            0,
          );
          log(
            `round ${round} c=${concurrency} ${variant.name}: ${row.rps} req/s p50 ${row.p50} p99 ${row.p99} max ${row.max} ms; ` +
              `CPU/call own ${own.toFixed(3)} (gw ${cpu.gateway} relay ${cpu.relay} billing ${cpu.billing} auth ${cpu.auth} admin ${cpu.admin}) ` +
              `pg ${cpu.postgres} kafka ${cpu.kafka} redis ${cpu.redis}; load ${load}${failed ? `; ${failed} failed` : ''}` +
              (kafkaGc
                ? `; kafka GC ${kafkaGc.count} pauses, ${kafkaGc.sumMs} ms, longest ${kafkaGc.maxMs}`
                : ''),
          );
          if (row.attribution) log(JSON.stringify(row.attribution));
          if (row.switches) printSwitches(`round ${round} c=${concurrency} ${variant.name}`, row.switches);
          if (args.strace && variant === order[order.length - 1]) {
            const tracing = await startStrace(groups);
            const traced = await window({
              url: started.platform.url,
              customer: started.customer,
              concurrency,
            });
            const counts = await tracing.stop();
            const n = concurrency === 0 ? traced.elapsed : traced.calls.length;
            const syscalls = {};
            for (const [group, bySyscall] of Object.entries(counts)) {
              const total = Object.values(bySyscall).reduce((a, b) => a + b, 0);
              const top = Object.entries(bySyscall)
                .sort((a, b) => b[1] - a[1])
                .slice(0, 8)
                .map(([name, count]) => [name, Number((count / n).toFixed(2))]);
              syscalls[group] = { total: Number((total / n).toFixed(2)), top: Object.fromEntries(top) };
              log(
                `round ${round} c=${concurrency} strace (${n} calls, ${Math.round(n / traced.elapsed)}/s) ${group}: ` +
                  `${syscalls[group].total} syscalls/call: ${top.map(([k, v]) => `${k} ${v}`).join(', ')}`,
              );
            }
            results.windows.push({
              round,
              concurrency,
              strace: true,
              calls: n,
              rps: Math.round(n / traced.elapsed),
              syscalls,
            });
          }
        }
        if (args.direct && concurrency > 0) {
          const load = await loadavg();
          const { calls, failed, elapsed } = await window({ url: upstream.url, concurrency, direct: true });
          const row = { round, concurrency, variant: 'direct', load, ...callTimes(calls, elapsed), failed };
          results.windows.push(row);
          log(
            `round ${round} c=${concurrency} direct: ${row.rps} req/s p50 ${row.p50} p99 ${row.p99} max ${row.max} ms; ` +
              `load ${load}${failed ? `; ${failed} failed` : ''}`,
          );
        }
      }
    }
  } finally {
    renice(niceRoots.infra, 0);
    await started.stop();
    await upstream.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
  summarize(results);
  if (args.out) writeFileSync(args.out, JSON.stringify(results, null, 2));
}

async function loadavg() {
  return readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
}

function summarize({ windows }) {
  for (const concurrency of concurrencies) {
    console.log(`\nc=${concurrency}: medians over rounds`);
    for (const variant of variants) {
      const rows = windows.filter(
        (w) => w.concurrency === concurrency && w.variant === variant.name && !w.strace,
      );
      const own = rows.map((w) =>
        ['gateway', 'relay', 'auth', 'billing', 'admin', 'chat'].reduce(
          (a, g) => a + (w.cpuPerCall[g] ?? 0),
          0,
        ),
      );
      console.log(
        `  ${variant.name}: req/s ${median(rows.map((w) => w.rps))}, p50 ${median(rows.map((w) => w.p50)).toFixed(3)}, ` +
          `p99 ${median(rows.map((w) => w.p99)).toFixed(3)} ms, CPU/call own ${median(own).toFixed(3)} ms ` +
          `(each round: p99 ${rows.map((w) => w.p99).join(' / ')}; req/s ${rows.map((w) => w.rps).join(' / ')})`,
      );
      if (rows[0]?.kafkaGc)
        console.log(
          `    kafka GC pauses per window: ${rows.map((w) => `${w.kafkaGc.count} (${w.kafkaGc.sumMs} ms)`).join(' / ')}`,
        );
      if (rows[0]?.switches) {
        const groups = Object.keys(rows[0].switches.byGroup);
        console.log(
          `    voluntary switches/call: ` +
            groups
              .map((g) => `${g} ${median(rows.map((w) => w.switches.byGroup[g]?.vol ?? 0)).toFixed(2)}`)
              .join(', ') +
            `; Tollgate ${median(
              rows.map((w) => TOLLGATE.reduce((a, g) => a + (w.switches.byGroup[g]?.vol ?? 0), 0)),
            ).toFixed(2)}`,
        );
      }
    }
    const direct = windows.filter((w) => w.concurrency === concurrency && w.variant === 'direct');
    if (direct.length)
      console.log(
        `  direct: p50 ${median(direct.map((w) => w.p50)).toFixed(3)}, p99 ${median(direct.map((w) => w.p99)).toFixed(3)} ms ` +
          `(each round: p99 ${direct.map((w) => w.p99).join(' / ')})`,
      );
  }
}

await main();
