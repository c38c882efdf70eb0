#!/usr/bin/env node
// What a small non-streaming call costs the relay alone (issue 17, H59): the relay on its own port (one
// worker, a Redis and Kafka of the run's own), the fake upstream answering at once, calls from this
// process on keep-alive connections. For each window at each concurrency: the relay's CPU per call
// (every thread, /proc/<pid>/task/*/schedstat), bytes its main isolate allocated per call, scavenges
// per 1,000 calls, their median pause and what each left alive (a preload, relay-alloc.preload.cjs),
// and the client's p50/p99/p99.9 (at c=1 the relay's latency plus the upstream's and this client's).
// --heap-profile DIR also writes a sampling heap profile of each window (allocation sites, collected
// objects included); with --live, what the window allocated that a scavenge at its end left alive;
// with --survivors, what the window allocated that no scavenge collected (promoted, or young at its end,
// whether or not a mark-compact collected it since): what lives across scavenges;
// --top FILE prints a saved profile's largest allocating functions.
// --snapshot DIR writes a heap snapshot of the relay --snapshot-at-ms into each window (default 2000; the
// window's figures then include the snapshot's pause): read it with heap-retainers.mjs (h121).
// --service gateway (H63) puts a gateway (distributed mode's, one worker) in front of the relay and
// measures it instead: the calls go through the gateway, the preload and the CPU count are its own.
//
//   export TOLLGATE_INFRA_DIR=/tmp/relay-alloc-infra
//   bash scripts/infra.sh up redis kafka && eval "$(bash scripts/infra.sh env redis kafka)"
//   node bench/micro/relay-alloc.mjs [--service relay|gateway] [--root DIR] [--levels 1:4000,64:16000] [--rounds 2] [--warmup 3000]
//     [--heap-profile DIR [--live|--survivors]] [--node-flags="--max-semi-space-size=32"] [--label TEXT] [--out FILE.json]
//     [--keep-logs DIR] (the services' logs, e.g. of --node-flags=--trace-gc-nvp, copied there)
//     [--snapshot DIR [--snapshot-at-ms 2000]]
//   node bench/micro/relay-alloc.mjs --top FILE.heapprofile [--calls N] [--limit 40]
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sendChatCalls, waitForFirstCall } from '../lib/chat-calls.mjs';
import { startChild } from '../lib/child.mjs';
import { freePort } from '../lib/net.mjs';
import { waitFor } from '../lib/processes.mjs';
import { seedRelayCustomer } from '../lib/relay-customer.mjs';
import { commonServiceEnv, gatewayEnv, relayEnv, serviceSecrets } from '../lib/standalone-services.mjs';
import { namedLog } from '../lib/log.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const { values: args } = parseArgs({
  options: {
    service: { type: 'string', default: 'relay' },
    root: { type: 'string', default: join(HERE, '..', '..') },
    levels: { type: 'string', default: '1:4000,64:16000' },
    rounds: { type: 'string', default: '2' },
    warmup: { type: 'string', default: '3000' },
    'heap-profile': { type: 'string' },
    live: { type: 'boolean', default: false },
    survivors: { type: 'boolean', default: false },
    'node-flags': { type: 'string', default: '' },
    label: { type: 'string', default: '' },
    'keep-logs': { type: 'string' },
    snapshot: { type: 'string' },
    'snapshot-at-ms': { type: 'string', default: '2000' },
    out: { type: 'string' },
    top: { type: 'string' },
    calls: { type: 'string', default: '1' },
    limit: { type: 'string', default: '40' },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(
    'node bench/micro/relay-alloc.mjs [--service relay|gateway] [--root DIR] [--levels 1:4000,64:16000] [--rounds 2] [--warmup 3000] [--heap-profile DIR [--live|--survivors]] [--node-flags=...] [--label TEXT] [--out FILE.json] [--keep-logs DIR] [--snapshot DIR [--snapshot-at-ms 2000]]\n' +
      'node bench/micro/relay-alloc.mjs --top FILE.heapprofile [--calls N] [--limit 40]',
  );
  process.exit(0);
}

if (args.top !== undefined) {
  printTop(JSON.parse(readFileSync(args.top, 'utf8')), Number(args.calls), Number(args.limit));
  process.exit(0);
}

if (args.service !== 'relay' && args.service !== 'gateway') throw new Error('--service is relay or gateway');
const ROOT = resolve(args.root);
const requireFromRoot = createRequire(join(ROOT, 'package.json'));
const runId = `a${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
const workDir = mkdtempSync(join(tmpdir(), 'ralloc-'));
const log = namedLog('relay-alloc');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function cpuNsOf(pid) {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // the thread ended meanwhile
    }
  }
  return ns;
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const median = (values) =>
  quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );

async function window(target, concurrency, count, tag) {
  const allocOut = join(workDir, `alloc-${tag}.json`);
  rmSync(allocOut, { force: true });
  target.setOut(
    allocOut,
    args['heap-profile'] ? join(args['heap-profile'], `${tag}.heapprofile`) : undefined,
    args.snapshot ? join(args.snapshot, `${tag}.heapsnapshot`) : undefined,
  );
  process.kill(target.pid, 'SIGUSR2');
  await sleep(300);
  const latencies = [];
  const cpuBefore = cpuNsOf(target.pid);
  const started = performance.now();
  const { Pool } = requireFromRoot('undici');
  const load = await sendChatCalls({
    Pool,
    url: target.url,
    customer: target.customer,
    calls: count,
    concurrency,
    latencies,
  });
  const seconds = (performance.now() - started) / 1000;
  const cpuNs = cpuNsOf(target.pid) - cpuBefore;
  process.kill(target.pid, 'SIGUSR2');
  await waitFor('the allocation window', async () => existsSync(allocOut) || 'not written');
  await sleep(50);
  const alloc = JSON.parse(readFileSync(allocOut, 'utf8'));
  if (alloc.error) throw new Error(alloc.error);
  if (load.failed > 0) throw new Error(`${load.failed} calls failed: ${load.firstFailure}`);
  const scavenges = alloc.gcs.filter((gc) => gc.type === 'Scavenge');
  latencies.sort((a, b) => a - b);
  return {
    concurrency,
    calls: count,
    rps: Math.round(count / seconds),
    cpuMsPerCall: cpuNs / 1e6 / count,
    kbPerCall: alloc.allocated / 1024 / count,
    scavengesPer1000: (scavenges.length * 1000) / count,
    scavengeMedianMs: scavenges.length ? median(scavenges.map((gc) => gc.ms)) : 0,
    survivedKbMedian: scavenges.length ? median(scavenges.map((gc) => gc.youngAfter)) / 1024 : 0,
    markCompacts: alloc.gcs.filter((gc) => gc.type === 'MarkSweepCompact').length,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    // At c=1 a scavenge meets about one call in 500: its pause shows at p99.9, not at p99.
    p999: quantile(latencies, 0.999),
  };
}

/** Starts one service of the run; the measured one (--service) with the preload and --node-flags. */
function startService(name, env, secrets, links) {
  const measured = name === args.service;
  const nodeFlags = measured ? args['node-flags'].split(/\s+/).filter(Boolean) : [];
  if (measured && (args.live || args.survivors)) nodeFlags.push('--expose-gc');
  const preload = measured ? ['--require', join(HERE, 'relay-alloc.preload.cjs')] : [];
  const logFile = join(workDir, `${name}.log`);
  const child = spawn(process.execPath, [...nodeFlags, ...preload, join(ROOT, `apps/${name}/dist/main.js`)], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...commonServiceEnv(secrets),
      ...env,
      ...(measured && {
        RELAY_ALLOC_OUT: links.out,
        ...(args['heap-profile'] ? { RELAY_ALLOC_HEAP_PROFILE: links.heap } : {}),
        ...(args.live ? { RELAY_ALLOC_LIVE: '1' } : {}),
        ...(args.survivors ? { RELAY_ALLOC_LIVE: 'survivors' } : {}),
        ...(args.snapshot
          ? { RELAY_ALLOC_SNAPSHOT: links.snapshot, RELAY_ALLOC_SNAPSHOT_MS: args['snapshot-at-ms'] }
          : {}),
      }),
    },
    stdio: ['ignore', openSync(logFile, 'a'), openSync(logFile, 'a')],
  });
  const exited = new Promise((r) => child.once('exit', r));
  process.once('exit', () => child.kill('SIGKILL'));
  return {
    pid: child.pid,
    stop: async () => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.kill('SIGTERM');
      await exited;
      clearTimeout(timer);
    },
  };
}

async function startTarget(upstreamUrl) {
  for (const name of ['REDIS_URL', 'KAFKA_BROKERS']) {
    if (!process.env[name])
      throw new Error(`${name} is not set: eval "$(bash scripts/infra.sh env redis kafka)" first`);
  }
  const { KafkaEventBus } = requireFromRoot('@tollgate/events');
  const secrets = serviceSecrets();
  const links = {
    out: join(workDir, 'alloc-current.json'),
    heap: join(workDir, 'heap-current.heapprofile'),
    snapshot: join(workDir, 'heap-current.heapsnapshot'),
  };
  const relayPort = await freePort();
  const relayUrl = `http://127.0.0.1:${relayPort}`;
  const relay = startService(
    'relay',
    relayEnv({ port: relayPort, spoolDir: join(workDir, 'spool') }),
    secrets,
    links,
  );
  let gateway;
  let url = relayUrl;
  if (args.service === 'gateway') {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    gateway = startService('gateway', gatewayEnv({ port, relayUrl }), secrets, links);
  }
  const bus = new KafkaEventBus({
    brokers: process.env.KAFKA_BROKERS.split(','),
    clientId: `alloc-${runId}`,
  });
  const customer = await seedRelayCustomer({
    requireFromRoot,
    bus,
    encryptionKey: secrets.encryptionKey,
    upstreamUrl,
    runId,
    prefix: 'alloc',
    label: 'Relay allocation',
  });
  await waitFor('relay', async () => (await fetch(`${relayUrl}/health/ready`)).ok || 'not ready');
  if (gateway) await waitFor('gateway', async () => (await fetch(`${url}/health/ready`)).ok || 'not ready');
  await waitForFirstCall({ url, customer });
  const relink = (link, target) => {
    rmSync(link, { force: true });
    symlinkSync(target, link);
  };
  return {
    url,
    customer,
    pid: (gateway ?? relay).pid,
    // The preload writes to fixed paths; each window points them at its own files.
    setOut(allocOut, heapOut, snapshotOut) {
      relink(links.out, allocOut);
      if (heapOut) relink(links.heap, heapOut);
      if (snapshotOut) relink(links.snapshot, snapshotOut);
    },
    stop: async () => {
      await bus.close().catch(() => undefined);
      await gateway?.stop();
      await relay.stop();
    },
  };
}

function printTop(profile, perCalls, limit) {
  const bySite = new Map();
  let total = 0;
  (function walk(node) {
    const { functionName, url, lineNumber } = node.callFrame;
    const self = node.selfSize;
    total += self;
    const file = url.replace(/^.*node_modules\//, '').replace(/^.*\/(apps|libs)\//, '$1/');
    const key = `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
    bySite.set(key, (bySite.get(key) ?? 0) + self);
    for (const child of node.children) walk(child);
  })(profile.head);
  console.log(`sampled ${(total / 1024 / perCalls).toFixed(2)} KB per call (${perCalls} calls)`);
  const rows = [...bySite].sort((a, b) => b[1] - a[1]).slice(0, limit);
  for (const [site, bytes] of rows)
    console.log(
      `${(bytes / 1024 / perCalls).toFixed(3).padStart(8)} KB  ${((100 * bytes) / total).toFixed(1).padStart(5)} %  ${site}`,
    );
}

const levels = args.levels.split(',').map((level) => {
  const [c, n] = level.split(':').map(Number);
  return { concurrency: c, calls: n };
});
if (args['heap-profile']) mkdirSync(args['heap-profile'], { recursive: true });
if (args.snapshot) mkdirSync(args.snapshot, { recursive: true });
const upstream = await startChild({
  name: 'fake upstream',
  command: process.execPath,
  args: [join(ROOT, 'scripts', 'fake-upstream.mjs'), '--port', '0', '--latency-ms', '0'],
  cwd: ROOT,
  ready: /fake-upstream listening on (http:\/\/\S+)/,
  logFile: join(workDir, 'fake-upstream.log'),
});
const target = await startTarget(upstream.match[1]);
const results = [];
try {
  log(`${args.service} ${target.pid} ready; warm-up ${args.warmup} calls at c=16`);
  await sendChatCalls({
    Pool: requireFromRoot('undici').Pool,
    url: target.url,
    customer: target.customer,
    calls: Number(args.warmup),
    concurrency: 16,
  });
  for (let round = 1; round <= Number(args.rounds); round++) {
    for (const { concurrency, calls: count } of levels) {
      const result = await window(target, concurrency, count, `c${concurrency}-r${round}`);
      results.push({ round, ...result });
      log(
        `c=${concurrency} r${round}: ${result.rps} req/s, ${args.service} CPU ${result.cpuMsPerCall.toFixed(3)} ms/call, ` +
          `${result.kbPerCall.toFixed(1)} KB/call, ${result.scavengesPer1000.toFixed(2)} scavenges/1000 calls ` +
          `(median ${result.scavengeMedianMs.toFixed(2)} ms, ${result.survivedKbMedian.toFixed(0)} KB left young), ` +
          `${result.markCompacts} mark-compacts, p50 ${result.p50.toFixed(3)} p99 ${result.p99.toFixed(3)} ` +
          `p99.9 ${result.p999.toFixed(3)} ms`,
      );
    }
  }
} finally {
  await target.stop();
  await upstream.stop();
}
const report = { label: args.label, service: args.service, root: ROOT, results };
if (args.out) writeFileSync(args.out, JSON.stringify(report, null, 2));
console.log(JSON.stringify(report));
if (args['keep-logs']) {
  mkdirSync(args['keep-logs'], { recursive: true });
  for (const name of readdirSync(workDir).filter((f) => f.endsWith('.log')))
    copyFileSync(join(workDir, name), join(args['keep-logs'], name));
}
rmSync(workDir, { recursive: true, force: true });
