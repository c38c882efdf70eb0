#!/usr/bin/env node
// What a lone non-streaming call costs the process that serves it (issue 17, "the bookkeeping of a
// lone call must be batched too"): calls sent one at a time, back to back and with pauses between
// them (a client calling every 10 or 50 ms), and for each phase the process's CPU per call (every
// thread and child process, /proc/<pid>/task/*/schedstat, in ns) and how often it went to sleep per
// call (voluntary context switches, /proc/<pid>/task/*/status). With --strace, each phase is repeated under
// `strace -c -f -e trace=epoll_pwait,epoll_wait` for the epoll waits per call (not timed: strace
// slows the process down). Build first (node scripts/build.mjs, or --root a built copy).
//
//   distributed: the relay alone (one worker) on a Redis and Kafka of the run's own, the fake upstream
//   answering at once; calls go to the relay's /v1/chat/completions with the seeded key.
//     export TOLLGATE_INFRA_DIR=/tmp/lone-infra
//     bash scripts/infra.sh up redis kafka && eval "$(bash scripts/infra.sh env redis kafka)"
//     node bench/micro/relay-lone-call.mjs [--root DIR] [--pauses 0,10,50] [--calls 300] [--rounds 2] [--strace]
//       [--node-flags="--some-v8-flag"] [--env NAME=VALUE ...]   (relay only)
//   embedded: the whole platform in one process (bench/lib/embedded.mjs), calls through its gateway.
//     node bench/micro/relay-lone-call.mjs --mode embedded [--root DIR] ...
//   platform: every service in its own process (bench/lib/platform.mjs) on the PostgreSQL, Redis and
//   Kafka of `scripts/infra.sh env`, calls through the gateway; each service's CPU and sleeps per call
//   (billing, auth and admin consume the calls' usage events), --strace on the relay.
//     node bench/micro/relay-lone-call.mjs --mode platform [--root DIR] ...
//
// Redis and Kafka's CPU per call are printed beside the relay's in distributed mode (Kafka's idle
// cost is large and noisy: read it over several rounds). The phases of one round run in the order of
// --pauses; rounds repeat them. Only the CPU and wake-ups per call are comparable between runs on a
// shared machine, not the wall times.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chatCallBody } from '../lib/chat-calls.mjs';
import { startChild } from '../lib/child.mjs';
import { infrastructurePids, processTable, treeOf } from '../lib/proc.mjs';
import { startRelayAlone } from '../lib/standalone-services.mjs';
import { envAssignments } from '../lib/env-assignments.mjs';
import { namedLog } from '../lib/log.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const { values: args } = parseArgs({
  options: {
    mode: { type: 'string', default: 'distributed' },
    root: { type: 'string', default: join(HERE, '..', '..') },
    pauses: { type: 'string', default: '0,10,50' },
    calls: { type: 'string', default: '300' },
    rounds: { type: 'string', default: '2' },
    warmup: { type: 'string', default: '500' },
    strace: { type: 'boolean', default: false },
    env: { type: 'string', multiple: true, default: [] },
    'node-flags': { type: 'string', default: '' },
    label: { type: 'string', default: '' },
    out: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(
    'node bench/micro/relay-lone-call.mjs [--mode distributed|embedded] [--root DIR] [--pauses 0,10,50] [--calls 300] [--rounds 2] [--warmup 500] [--strace] [--env NAME=VALUE ...] [--label TEXT] [--out FILE.json]',
  );
  process.exit(0);
}

const ROOT = resolve(args.root);
const requireFromRoot = createRequire(join(ROOT, 'package.json'));
const runId = `l${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
// Short: relay's spool directory holds lock sockets (at most 80 bytes of path).
const workDir = mkdtempSync(join(tmpdir(), 'lone-'));
const log = namedLog('relay-lone-call');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const extraEnv = envAssignments(args.env);

// ---- /proc: every thread of a process

function tasks(pid) {
  try {
    return readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
}

/**
 * CPU time of all the threads of a process and of its child processes (PostgreSQL's backends, a
 * clustered service's workers) in ns, of its main thread alone (the event loop; the others are V8's
 * platform workers and libuv's pool), and their voluntary context switches (sleeps).
 */
function sample(pid) {
  let cpuNs = 0;
  let mainNs = 0;
  let sleeps = 0;
  for (const process of treeOf(processTable(), pid)) {
    for (const tid of tasks(process)) {
      try {
        const ns = Number(readFileSync(`/proc/${process}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
        cpuNs += ns;
        if (tid === String(pid)) mainNs = ns;
        const status = readFileSync(`/proc/${process}/task/${tid}/status`, 'utf8');
        sleeps += Number(/voluntary_ctxt_switches:\s+(\d+)/.exec(status)[1]);
      } catch {
        // the thread ended meanwhile
      }
    }
  }
  return { cpuNs, mainNs, sleeps };
}

// ---- the calls: one at a time on one keep-alive connection, `pauseMs` between an answer and the next call

async function loneCalls(url, customer, calls, pauseMs) {
  const { Pool } = requireFromRoot('undici');
  const pool = new Pool(new URL(url).origin, { connections: 1, pipelining: 1 });
  const body = chatCallBody(customer.model);
  const headers = { authorization: `Bearer ${customer.apiKey}`, 'content-type': 'application/json' };
  let failed = 0;
  let firstFailure = '';
  try {
    for (let i = 0; i < calls; i++) {
      const res = await pool.request({ path: '/v1/chat/completions', method: 'POST', headers, body });
      const text = await res.body.text();
      if (res.statusCode !== 200) {
        failed++;
        firstFailure ||= `${res.statusCode} ${text.slice(0, 200)}`;
      }
      if (pauseMs > 0) await sleep(pauseMs);
    }
  } finally {
    await pool.close();
  }
  return { failed, firstFailure };
}

async function phase(target, pauseMs, calls) {
  const before = Object.fromEntries(Object.entries(target.pids).map(([n, pid]) => [n, sample(pid)]));
  const started = performance.now();
  const load = await loneCalls(target.url, target.customer, calls, pauseMs);
  const seconds = (performance.now() - started) / 1000;
  const after = Object.fromEntries(Object.entries(target.pids).map(([n, pid]) => [n, sample(pid)]));
  const perCall = {};
  for (const name of Object.keys(target.pids)) {
    perCall[name] = {
      cpuMs: (after[name].cpuNs - before[name].cpuNs) / 1e6 / calls,
      mainMs: (after[name].mainNs - before[name].mainNs) / 1e6 / calls,
      sleeps: (after[name].sleeps - before[name].sleeps) / calls,
    };
  }
  return { pauseMs, calls, seconds, ...load, perCall };
}

/** The same calls with strace counting the served process's epoll waits (all its threads). */
async function stracedPhase(target, pauseMs, calls) {
  const outFile = join(workDir, `strace-${pauseMs}-${Date.now()}.txt`);
  const strace = spawn(
    'strace',
    ['-c', '-f', '-e', 'trace=epoll_pwait,epoll_wait', '-o', outFile, '-p', String(target.servedPid)],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let straceErr = '';
  strace.stderr.on('data', (d) => (straceErr += d));
  await sleep(500); // attached
  const load = await loneCalls(target.url, target.customer, calls, pauseMs);
  const exited = new Promise((r) => strace.once('exit', r));
  strace.kill('SIGINT');
  await exited;
  let waits = 0;
  try {
    for (const line of readFileSync(outFile, 'utf8').split('\n')) {
      const m = /^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(epoll_p?wait)$/.exec(line);
      if (m) waits += Number(m[1]);
    }
  } catch {
    throw new Error(`strace wrote nothing (${straceErr.trim()})`);
  }
  // The 0.5 s before the calls is counted too: subtract it at the idle rate measured alone.
  return { pauseMs, calls, failed: load.failed, waits, waitsPerCall: waits / calls };
}

async function idleWaits(pid, seconds) {
  const outFile = join(workDir, `strace-idle-${Date.now()}.txt`);
  const strace = spawn(
    'strace',
    ['-c', '-f', '-e', 'trace=epoll_pwait,epoll_wait', '-o', outFile, '-p', String(pid)],
    {
      stdio: 'ignore',
    },
  );
  await sleep(seconds * 1000);
  const exited = new Promise((r) => strace.once('exit', r));
  strace.kill('SIGINT');
  await exited;
  let waits = 0;
  for (const line of readFileSync(outFile, 'utf8').split('\n')) {
    const m = /^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(epoll_p?wait)$/.exec(line);
    if (m) waits += Number(m[1]);
  }
  return waits / seconds;
}

// ---- targets

async function startFakeUpstream() {
  const { match, stop } = await startChild({
    name: 'fake upstream',
    command: process.execPath,
    args: [join(ROOT, 'scripts', 'fake-upstream.mjs'), '--port', '0', '--latency-ms', '0'],
    cwd: ROOT,
    ready: /fake-upstream listening on (http:\/\/\S+)/,
    logFile: join(workDir, 'fake-upstream.log'),
  });
  return { url: match[1], stop };
}

async function startDistributed(upstreamUrl) {
  for (const name of ['REDIS_URL', 'KAFKA_BROKERS']) {
    if (!process.env[name])
      throw new Error(`${name} is not set: eval "$(bash scripts/infra.sh env redis kafka)" first`);
  }
  const relay = await startRelayAlone({
    root: ROOT,
    requireFromRoot,
    workDir,
    upstreamUrl,
    runId,
    prefix: 'lone',
    label: 'Lone call',
    nodeArgs: args['node-flags'].split(/\s+/).filter(Boolean),
    env: extraEnv,
  });
  // Redis and the broker, by the ports they listen on (no PostgreSQL here: relay has no database).
  const pids = {
    relay: relay.pid,
    ...infrastructurePids(
      { ...process.env, DATABASE_URL: 'postgresql://remote.invalid/none' },
      () => undefined,
    ),
  };
  return { url: relay.url, customer: relay.customer, pids, servedPid: relay.pid, stop: relay.stop };
}

/**
 * Every service in its own process (bench/lib/platform.mjs), calls through the gateway: the relay and
 * what a lone call costs the consumers of its usage event (billing, auth, admin) and PostgreSQL.
 */
async function startPlatform(upstreamUrl) {
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'KAFKA_BROKERS']) {
    if (!process.env[name]) throw new Error(`${name} is not set: eval "$(bash scripts/infra.sh env)" first`);
  }
  const { startTollgate } = await import(join(ROOT, 'bench', 'lib', 'platform.mjs'));
  const started = await startTollgate({
    infra: process.env,
    upstreamUrl,
    workers: 1,
    logDir: workDir,
    runId,
    extraEnv: extraEnv,
  });
  const pids = {};
  for (const [name, service] of Object.entries(started.platform.services)) pids[name] = service.pid;
  Object.assign(pids, infrastructurePids(process.env, log));
  return {
    url: started.platform.url,
    customer: started.customer,
    pids,
    servedPid: pids.relay,
    stop: started.stop,
  };
}

async function startEmbedded(upstreamUrl) {
  if (Object.keys(extraEnv).length > 0) throw new Error('--env is for distributed mode only');
  const { startEmbeddedTollgate } = await import(join(ROOT, 'bench', 'lib', 'embedded.mjs'));
  const platform = await startEmbeddedTollgate({ upstreamUrl, logDir: workDir, runId });
  return {
    url: platform.url,
    customer: platform.customer,
    pids: { embedded: platform.pid },
    servedPid: platform.pid,
    stop: platform.stop,
  };
}

// ---- the run

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  for (const entry of ['apps/relay/dist/main.js', 'libs/events/dist/index.js']) {
    if (!existsSync(join(ROOT, entry))) throw new Error(`${join(ROOT, entry)} is missing: build first`);
  }
  if (args.strace) execFileSync('strace', ['-V'], { stdio: 'ignore' });
  log(`${args.mode}, root ${ROOT}, logs in ${workDir}`);
  const upstream = await startFakeUpstream();
  const target =
    args.mode === 'embedded'
      ? await startEmbedded(upstream.url)
      : args.mode === 'platform'
        ? await startPlatform(upstream.url)
        : await startDistributed(upstream.url);
  const pauses = args.pauses.split(',').map(Number);
  const calls = Number(args.calls);
  const phases = [];
  const straced = [];
  let idleWaitsPerSecond;
  try {
    log(`warm-up: ${args.warmup} calls back to back`);
    await loneCalls(target.url, target.customer, Number(args.warmup), 0);
    await sleep(1000);
    const idleBefore = Object.fromEntries(Object.entries(target.pids).map(([n, pid]) => [n, sample(pid)]));
    await sleep(5000);
    const idle = Object.fromEntries(
      Object.entries(target.pids).map(([n, pid]) => {
        const now = sample(pid);
        return [
          n,
          {
            cpuMsPerSecond: (now.cpuNs - idleBefore[n].cpuNs) / 1e6 / 5,
            sleepsPerSecond: (now.sleeps - idleBefore[n].sleeps) / 5,
          },
        ];
      }),
    );
    log(
      `idle: ${Object.entries(idle)
        .map(([n, v]) => `${n} ${v.cpuMsPerSecond.toFixed(2)} ms/s ${v.sleepsPerSecond.toFixed(0)} sleeps/s`)
        .join(', ')}`,
    );
    if (args.strace) {
      idleWaitsPerSecond = await idleWaits(target.servedPid, 5);
      log(`idle: ${idleWaitsPerSecond.toFixed(0)} epoll waits/s`);
    }
    for (let round = 0; round < Number(args.rounds); round++) {
      for (const pauseMs of pauses) {
        const result = await phase(target, pauseMs, calls);
        phases.push(result);
        log(
          `round ${round + 1} pause ${pauseMs} ms: ${calls} calls (${result.failed} failed${result.firstFailure ? `: ${result.firstFailure}` : ''}) in ${result.seconds.toFixed(1)} s; per call ` +
            Object.entries(result.perCall)
              .map(
                ([n, v]) =>
                  `${n} ${v.cpuMs.toFixed(3)} ms (main ${v.mainMs.toFixed(3)}) ${v.sleeps.toFixed(1)} sleeps`,
              )
              .join(', '),
        );
        if (args.strace) {
          const s = await stracedPhase(target, pauseMs, calls);
          // Minus the idle waits of the half second before the calls and of the calls' own duration
          // would over-correct; only the 0.5 s before them is subtracted.
          s.waitsPerCall = (s.waits - idleWaitsPerSecond * 0.5) / calls;
          straced.push(s);
          log(
            `round ${round + 1} pause ${pauseMs} ms under strace: ${s.waitsPerCall.toFixed(2)} epoll waits per call`,
          );
        }
      }
    }
  } finally {
    await target.stop().catch((e) => log(`stop: ${e.message}`));
    await upstream.stop().catch(() => undefined);
  }
  const failed = phases.reduce((sum, p) => sum + p.failed, 0);
  if (failed > 0) {
    process.exitCode = 1;
    log(`${failed} calls failed: these numbers do not measure served calls`);
  }
  const summary = pauses.map((pauseMs) => {
    const of = phases.filter((p) => p.pauseMs === pauseMs);
    const row = { pauseMs };
    for (const name of Object.keys(target.pids)) {
      row[name] = {
        cpuMs: median(of.map((p) => p.perCall[name].cpuMs)),
        mainMs: median(of.map((p) => p.perCall[name].mainMs)),
        sleeps: median(of.map((p) => p.perCall[name].sleeps)),
      };
    }
    const s = straced.filter((p) => p.pauseMs === pauseMs);
    if (s.length > 0) row.epollWaitsPerCall = median(s.map((p) => p.waitsPerCall));
    return row;
  });
  if (args.out)
    writeFileSync(
      args.out,
      JSON.stringify(
        {
          label: args.label,
          mode: args.mode,
          root: ROOT,
          at: new Date().toISOString(),
          summary,
          phases,
          straced,
          idleWaitsPerSecond,
        },
        null,
        2,
      ),
    );
  console.log(
    `lone calls (${args.label || ROOT}, ${args.mode}), median of ${args.rounds} rounds of ${calls} calls:`,
  );
  for (const row of summary) {
    const parts = Object.keys(target.pids).map(
      (n) =>
        `${n} ${row[n].cpuMs.toFixed(3)} ms (main ${row[n].mainMs.toFixed(3)}) ${row[n].sleeps.toFixed(1)} sleeps`,
    );
    if (row.epollWaitsPerCall !== undefined) parts.push(`epoll waits ${row.epollWaitsPerCall.toFixed(2)}`);
    console.log(`  pause ${String(row.pauseMs).padStart(3)} ms: ${parts.join(', ')}`);
  }
  rmSync(join(workDir, 'spool'), { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
