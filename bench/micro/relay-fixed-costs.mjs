// What the relay pays per call at c=1 that it shares between calls at c=64 (issue 17, h126): the relay
// alone (one worker, a Redis and Kafka of the run's own, the fake upstream answering at once), calls
// from this process on keep-alive connections, a window per concurrency level. For each window, per
// call: the relay's CPU (every thread, /proc/<pid>/task/*/schedstat) and its wake-ups (voluntary context
// switches) by thread name, and its garbage collections (a preload, relay-fixed-costs.preload.cjs); with
// --census, a second window of the same calls in which the preload counts the async resources the main
// thread started by type (timers, immediates, ticks, promises, write requests) with the code that started
// the timers, immediates and ticks, and Timeout#refresh calls (async_hooks cost CPU of their own, and
// turning them on and off deoptimises node's timer code: read counts there, CPU in the plain window); with --strace,
// a second window of the same calls under `strace -c -f` for the system calls per call by name (strace
// slows the process: read counts, not times). --hold keeps the relay up after the windows and prints its
// pid and how to call it (for `strace -tt -T -f -p PID`, perf, --cpu-prof), until Ctrl-C.
//
//   export TOLLGATE_INFRA_DIR=/tmp/fixed-infra
//   bash scripts/infra.sh up redis kafka && eval "$(bash scripts/infra.sh env redis kafka)"
//   node bench/micro/relay-fixed-costs.mjs [--root DIR] [--levels 1:3000,64:16000] [--rounds 1] [--warmup 3000]
//     [--census] [--strace] [--sites 12] [--perf SECONDS] [--node-flags="..."] [--env NAME=VALUE ...] [--hold] [--out FILE.json] [--help]
// --keep-logs keeps the relay's log, its windows marked ("relay-fixed-costs: window open/closed").
// --pin CPUS measures every level twice, the relay on any CPU and pinned to CPUS (taskset); --isolate CPUS
// also moves this client, the fake upstream and the run's Redis and Kafka to the other CPUs (processes of
// others, a CI run's, still share the relay's CPU).
// --perf SECONDS also records each level for that long with relay-cpu-groups.mjs (perf; the relay then
// needs --node-flags=--perf-basic-prof) and prints its groups: shares of the relay's CPU by part.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sendChatCalls } from '../lib/chat-calls.mjs';
import { startChild } from '../lib/child.mjs';
import { infrastructureFromEnv } from '../lib/infra.mjs';
import { infrastructurePids } from '../lib/proc.mjs';
import { waitFor } from '../lib/processes.mjs';
import { startRelayAlone } from '../lib/standalone-services.mjs';
import { envAssignments } from '../lib/env-assignments.mjs';
import { namedLog } from '../lib/log.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const { values: args } = parseArgs({
  options: {
    root: { type: 'string', default: join(HERE, '..', '..') },
    levels: { type: 'string', default: '1:3000,64:16000' },
    rounds: { type: 'string', default: '1' },
    warmup: { type: 'string', default: '3000' },
    census: { type: 'boolean', default: false },
    strace: { type: 'boolean', default: false },
    sites: { type: 'string', default: '12' },
    'node-flags': { type: 'string', default: '' },
    env: { type: 'string', multiple: true, default: [] },
    hold: { type: 'boolean', default: false },
    perf: { type: 'string' },
    pin: { type: 'string' },
    isolate: { type: 'string' },
    'keep-logs': { type: 'boolean', default: false },
    out: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  // The file's opening comment is its manual.
  const manual = readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\nimport ')[0];
  console.log(manual.replace(/^\/\/ ?/gm, ''));
  process.exit(0);
}

// Before anything starts: a missing server ends the process here, where nothing is left running.
infrastructureFromEnv(['REDIS_URL', 'KAFKA_BROKERS']);
const ROOT = resolve(args.root);
const requireFromRoot = createRequire(join(ROOT, 'package.json'));
const runId = `f${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
const workDir = mkdtempSync(join(tmpdir(), 'fixed-'));
const log = namedLog('relay-fixed-costs');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const extraEnv = envAssignments(args.env);

/** CPU ns and voluntary switches of every thread of pid, by thread name (digits folded). */
function threads(pid) {
  const byName = {};
  let tids = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return byName;
  }
  for (const tid of tids) {
    try {
      const base = `/proc/${pid}/task/${tid}`;
      const name =
        tid === String(pid) ? 'main' : readFileSync(`${base}/comm`, 'utf8').trim().replace(/\d+/g, '#');
      const ns = Number(readFileSync(`${base}/schedstat`, 'utf8').split(' ')[0]);
      const sleeps = Number(
        /voluntary_ctxt_switches:\s+(\d+)/.exec(readFileSync(`${base}/status`, 'utf8'))[1],
      );
      const migrations = Number(
        /se\.nr_migrations\s+:\s+(\d+)/.exec(readFileSync(`${base}/sched`, 'utf8'))?.[1] ?? 0,
      );
      const row = (byName[name] ??= { ns: 0, sleeps: 0, migrations: 0 });
      row.ns += ns;
      row.sleeps += sleeps;
      row.migrations += migrations;
    } catch {
      // the thread ended meanwhile
    }
  }
  return byName;
}

async function startTarget(upstreamUrl) {
  const outFile = join(workDir, 'window.json');
  const relay = await startRelayAlone({
    root: ROOT,
    requireFromRoot,
    workDir,
    upstreamUrl,
    runId,
    prefix: 'fixed',
    label: 'Relay fixed costs',
    nodeArgs: [
      ...args['node-flags'].split(/\s+/).filter(Boolean),
      '--require',
      join(HERE, 'relay-fixed-costs.preload.cjs'),
    ],
    env: { RELAY_FIXED_OUT: outFile, ...extraEnv },
  });
  return { ...relay, outFile };
}

async function calls(target, concurrency, count) {
  const { Pool } = requireFromRoot('undici');
  const load = await sendChatCalls({
    Pool,
    url: target.url,
    customer: target.customer,
    calls: count,
    concurrency,
  });
  if (load.failed > 0) throw new Error(`${load.failed} calls failed: ${load.firstFailure}`);
  return load;
}

async function measuredWindow(target, concurrency, count, census) {
  rmSync(target.outFile, { force: true });
  if (census) writeFileSync(`${target.outFile}.census`, '');
  else rmSync(`${target.outFile}.census`, { force: true });
  process.kill(target.pid, 'SIGUSR2');
  await sleep(200);
  const before = threads(target.pid);
  const load = await calls(target, concurrency, count);
  const after = threads(target.pid);
  process.kill(target.pid, 'SIGUSR2');
  await waitFor('the window', async () => existsSync(target.outFile) || 'not written');
  await sleep(50);
  const window = JSON.parse(readFileSync(target.outFile, 'utf8'));
  const perThread = {};
  let cpuNs = 0;
  let sleeps = 0;
  let migrations = 0;
  for (const [name, row] of Object.entries(after)) {
    const ns = row.ns - (before[name]?.ns ?? 0);
    const s = row.sleeps - (before[name]?.sleeps ?? 0);
    const m = row.migrations - (before[name]?.migrations ?? 0);
    cpuNs += ns;
    sleeps += s;
    migrations += m;
    perThread[name] = { cpuMs: ns / 1e6 / count, wakeUps: s / count, migrations: m / count };
  }
  const per = (n) => n / count;
  return {
    concurrency,
    calls: count,
    rps: Math.round(count / load.seconds),
    cpuMs: cpuNs / 1e6 / count,
    wakeUps: sleeps / count,
    migrations: migrations / count,
    perThread,
    asyncResources: Object.fromEntries(
      Object.entries(window.types)
        .sort((a, b) => b[1] - a[1])
        .map(([type, n]) => [type, per(n)]),
    ),
    timeoutRefreshes: per(window.refreshes),
    sites: Object.entries(window.sites)
      .sort((a, b) => b[1] - a[1])
      .slice(0, Number(args.sites))
      .map(([site, n]) => {
        const type = site.split(' ')[0];
        // Sampled up to 2,000 a type: scale the site's share back to all of its type.
        const sampled = Math.min(2000, window.types[type]);
        return { site, perCall: (n / sampled) * per(window.types[type]) };
      }),
    gcsPer1000: Object.fromEntries(Object.entries(window.gcs).map(([k, n]) => [k, (1000 * n) / count])),
    gcMsPerCall: per(window.gcMs),
    activeResourcesAtEnd: window.activeResources,
  };
}

const pick = (object, ...keys) => Object.fromEntries(keys.map((key) => [key, object[key]]));

async function stracedWindow(target, concurrency, count) {
  const outFile = join(workDir, `strace-c${concurrency}-${Date.now()}.txt`);
  const strace = spawn('strace', ['-c', '-f', '-o', outFile, '-p', String(target.pid)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let straceErr = '';
  strace.stderr.on('data', (d) => (straceErr += d));
  await sleep(500);
  const startedAt = performance.now();
  await calls(target, concurrency, count);
  const seconds = (performance.now() - startedAt) / 1000;
  const stopped = new Promise((r) => strace.once('exit', r));
  strace.kill('SIGINT');
  await stopped;
  if (!existsSync(outFile)) throw new Error(`strace wrote nothing (${straceErr.trim()})`);
  const bySyscall = {};
  for (const line of readFileSync(outFile, 'utf8').split('\n')) {
    const m = /^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(\w+)$/.exec(line);
    if (m && m[2] !== 'total') bySyscall[m[2]] = Number(m[1]) / count;
  }
  return { concurrency, calls: count, seconds, bySyscall };
}

/** relay-cpu-groups.mjs (perf, grouped by part) over a window of calls at this level lasting `seconds`. */
async function perfWindow(target, concurrency, count, tag) {
  const seconds = Number(args.perf);
  const groups = spawn(
    process.execPath,
    [
      join(HERE, 'relay-cpu-groups.mjs'),
      '--pid',
      String(target.pid),
      '--seconds',
      String(seconds),
      '--detail',
      'relay:',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let text = '';
  groups.stdout.on('data', (d) => (text += d));
  const exited = new Promise((r) => groups.once('exit', r));
  await sleep(300);
  // The level's calls again and again until perf has recorded for its seconds.
  let done = false;
  exited.then(() => (done = true));
  let sent = 0;
  const batch = Math.min(count, 500 * concurrency);
  while (!done) {
    await calls(target, concurrency, batch);
    sent += batch;
  }
  await exited;
  console.log(`\n-- perf (${tag}), about ${sent} calls:\n${text}`);
}

async function main() {
  log(`root ${ROOT}, logs in ${workDir}`);
  const {
    match,
    child: upstreamChild,
    stop: stopUpstream,
  } = await startChild({
    name: 'fake upstream',
    command: process.execPath,
    args: [join(ROOT, 'scripts', 'fake-upstream.mjs'), '--port', '0', '--latency-ms', '0'],
    cwd: ROOT,
    ready: /fake-upstream listening on (http:\/\/\S+)/,
    logFile: join(workDir, 'fake-upstream.log'),
  });
  const target = await startTarget(match[1]);
  // This run's own Redis and Kafka (--isolate moves them off the relay's CPU).
  const infraPids =
    args.isolate === undefined
      ? {}
      : infrastructurePids({ ...process.env, DATABASE_URL: 'postgresql://remote.invalid/none' }, log);
  const levels = args.levels.split(',').map((level) => {
    const [c, n] = level.split(':').map(Number);
    return { concurrency: c, count: n };
  });
  const results = [];
  try {
    log(`relay pid ${target.pid}; warm-up: ${args.warmup} calls at c=16`);
    await calls(target, 16, Number(args.warmup));
    await sleep(1000);
    for (let round = 1; round <= Number(args.rounds); round++) {
      for (const { concurrency, count } of levels) {
        // --pin: every level twice, the relay free to run on any CPU and pinned to one, in an order
        // alternating by round.
        // --pin / --isolate: every level twice, in an order alternating by round.
        const pinned = args.pin ?? args.isolate;
        const variants = pinned === undefined ? ['any'] : round % 2 ? ['any', pinned] : [pinned, 'any'];
        for (const cpus of variants) {
          if (pinned !== undefined) {
            const count = (await import('node:os')).availableParallelism();
            const all = `0-${count - 1}`;
            const others = Array.from({ length: count }, (_, i) => String(i))
              .filter((cpu) => !cpus.split(',').includes(cpu))
              .join(',');
            const taskset = (pid, list) =>
              execFileSync('taskset', ['-a', '-p', '-c', list, String(pid)], { stdio: 'ignore' });
            taskset(target.pid, cpus === 'any' ? all : cpus);
            if (args.isolate !== undefined)
              for (const pid of [process.pid, upstreamChild.pid, ...Object.values(infraPids)])
                taskset(pid, cpus === 'any' ? all : others);
            await sleep(200);
          }
          const plain = await measuredWindow(target, concurrency, count, false);
          // async_hooks on and off deoptimises node's timer and stream code: the plain windows that
          // follow a census re-optimise it, so the census is asked for (--census), not run by default.
          const census = args.census ? await measuredWindow(target, concurrency, count, true) : undefined;
          const w = {
            ...census,
            ...pick(plain, 'rps', 'cpuMs', 'wakeUps', 'migrations', 'perThread', 'gcsPer1000', 'gcMsPerCall'),
          };
          w.censusCpuMs = census?.cpuMs;
          const s = args.strace ? await stracedWindow(target, concurrency, count) : undefined;
          results.push({ round, cpus, ...w, syscalls: s?.bySyscall });
          console.log(
            `\n== round ${round}, c=${concurrency}, relay on CPUs ${cpus}, ${count} calls, ${w.rps} req/s`,
          );
          console.log(
            `relay CPU ${w.cpuMs.toFixed(4)} ms/call${census ? ` (${w.censusCpuMs.toFixed(4)} in the census window)` : ''}, wake-ups ${w.wakeUps.toFixed(2)}/call, CPU migrations ${w.migrations.toFixed(2)}/call`,
          );
          for (const [name, t] of Object.entries(w.perThread))
            if (t.cpuMs > 0.0005 || t.wakeUps > 0.01)
              console.log(
                `  ${name.padEnd(18)} ${t.cpuMs.toFixed(4)} ms  ${t.wakeUps.toFixed(2)} wake-ups  ${t.migrations.toFixed(2)} migrations`,
              );
          if (census)
            console.log(
              `async resources/call: ${Object.entries(w.asyncResources)
                .map(([k, v]) => `${k} ${v.toFixed(2)}`)
                .join(', ')}; Timeout#refresh ${w.timeoutRefreshes.toFixed(2)}`,
            );
          console.log(
            `GC per 1000 calls: ${JSON.stringify(Object.fromEntries(Object.entries(w.gcsPer1000).map(([k, v]) => [k, +v.toFixed(2)])))}, ${(1000 * w.gcMsPerCall).toFixed(1)} µs/call`,
          );
          if (census) console.log('started by (per call):');
          for (const { site, perCall } of w.sites ?? [])
            console.log(`  ${perCall.toFixed(3).padStart(7)}  ${site}`);
          if (args.perf) await perfWindow(target, concurrency, count, `c=${concurrency}`);
          if (s) {
            console.log('syscalls/call (strace -c -f):');
            const rows = Object.entries(s.bySyscall).sort((a, b) => b[1] - a[1]);
            const total = rows.reduce((sum, [, n]) => sum + n, 0);
            console.log(
              `  total ${total.toFixed(2)}: ${rows.map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')}`,
            );
          }
        }
      }
    }
    if (args.out) writeFileSync(args.out, JSON.stringify(results, null, 2));
    if (args.hold) {
      console.log(
        `\nholding: relay pid ${target.pid} at ${target.url}, key ${target.customer.apiKey}, model ${target.customer.model}; Ctrl-C ends`,
      );
      await new Promise((r) => process.once('SIGINT', r));
    }
  } finally {
    await target.stop().catch((e) => log(`stop: ${e.message}`));
    await stopUpstream().catch(() => undefined);
    if (args['keep-logs']) log(`relay's log kept in ${workDir}/relay.log`);
    else rmSync(workDir, { recursive: true, force: true });
  }
}

await main();
