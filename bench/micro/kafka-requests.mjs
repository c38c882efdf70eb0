#!/usr/bin/env node
// Kafka requests and CPU per call of the distributed platform (issue 17, H42): every service in its
// own process (one worker each) on a PostgreSQL, Redis and Kafka of the run's own, the fake upstream
// answering at once, non-streaming chat calls at each concurrency given (closed loop), or at each
// fixed rate given (--rates 200,600: calls started on a clock, at most --max-in-flight at once; on a
// shared machine a closed loop's rate moves with the other load, and so does the CPU per call, since
// the broker's cost goes by requests, not calls), and for each window:
//   - each process's CPU (utime + stime from /proc, the broker and PostgreSQL beside the services), and
//     of the broker's JIT compiler threads apart (`kafka JIT`, part of `kafka`);
//   - with --count, the Kafka requests each service's kafkajs clients sent, by client (producer,
//     admin, consumer:<group>, consumer:table) and API, per call (kafka-requests.preload.cjs);
//   - billing's drain: ms from the last call's answer until billing's usage_logs hold every call.
// A window ends `--tail-ms` after the last call (or after the drain, when that is later).
//
//   node scripts/build.mjs
//   export TOLLGATE_INFRA_DIR=/tmp/h42-infra; bash scripts/infra.sh up && eval "$(bash scripts/infra.sh env)"
//   node bench/micro/kafka-requests.mjs --count --concurrency 1,64
//   node bench/micro/kafka-requests.mjs --root /tmp/h42-a --concurrency 1,64 --out a1.json   # before/after
//
// With --root the services and kafkajs come from that (built) checkout. The request counter costs a
// little CPU of its own (an event per request): compare CPU only between runs alike in --count.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import { openCpuWindow } from '../lib/cpu.mjs';
import { infrastructureFromEnv } from '../lib/infra.mjs';
import { startFakeUpstream, startTollgate } from '../lib/platform.mjs';
import { infrastructurePids } from '../lib/proc.mjs';
import { median } from '../lib/stats.mjs';
import { chatCallBody, sendChatCalls } from '../lib/chat-calls.mjs';
import { namedLog } from '../lib/log.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const PRELOAD = join(HERE, 'kafka-requests.preload.cjs');
const SERVICES = ['gateway', 'relay', 'auth', 'billing', 'admin', 'chat'];

const { values: args } = parseArgs({
  options: {
    root: { type: 'string', default: join(HERE, '..', '..') },
    calls: { type: 'string', default: '3000' },
    concurrency: { type: 'string', default: '1,64' },
    rates: { type: 'string' },
    'max-in-flight': { type: 'string', default: '64' },
    rounds: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '1000' },
    'tail-ms': { type: 'string', default: '1000' },
    'idle-ms': { type: 'string', default: '5000' },
    count: { type: 'boolean', default: false },
    out: { type: 'string' },
    label: { type: 'string', default: '' },
  },
});

const ROOT = resolve(args.root);
const requireFromRoot = createRequire(join(ROOT, 'package.json'));
const infra = infrastructureFromEnv();
const runId = `k${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
const workDir = join(tmpdir(), `kr-${runId}`);
const countDir = join(workDir, 'requests');
mkdirSync(countDir, { recursive: true });
const log = namedLog('kafka-requests');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let snapSeq = 0;
/** Every counting process's requests so far: `${service} ${client} ${api}` → requests. */
async function requestCounts() {
  if (!args.count) return {};
  const snap = String(++snapSeq);
  writeFileSync(join(countDir, 'snap'), snap);
  await sleep(300);
  const totals = {};
  for (const file of readdirSync(countDir)) {
    const m = /^(\w+)\.(\d+)\.(\d+)\.json$/.exec(file);
    if (!m || m[3] !== snap) continue;
    for (const [key, n] of Object.entries(JSON.parse(readFileSync(join(countDir, file), 'utf8')))) {
      totals[`${m[1]} ${key}`] = (totals[`${m[1]} ${key}`] ?? 0) + n;
    }
  }
  return totals;
}

/** `calls` calls started `rate` a second on a clock, at most `maxInFlight` at once. */
async function sendAtRate({ Pool, url, customer, calls, rate, maxInFlight }) {
  const pool = new Pool(new URL(url).origin, { connections: maxInFlight, pipelining: 1 });
  const body = chatCallBody(customer.model);
  const headers = { authorization: `Bearer ${customer.apiKey}`, 'content-type': 'application/json' };
  let failed = 0;
  let firstFailure = '';
  let inFlight = 0;
  let wake = () => undefined;
  const call = async () => {
    inFlight++;
    try {
      const res = await pool.request({ path: '/v1/chat/completions', method: 'POST', headers, body });
      const text = await res.body.text();
      if (res.statusCode !== 200) {
        failed++;
        firstFailure ||= `${res.statusCode} ${text.slice(0, 200)}`;
      }
    } finally {
      inFlight--;
      wake();
    }
  };
  const started = performance.now();
  const running = [];
  for (let i = 0; i < calls; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    while (inFlight >= maxInFlight) await new Promise((r) => (wake = r));
    running.push(call());
  }
  await Promise.all(running);
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  return { calls, failed, firstFailure, seconds };
}

const diff = (after, before, calls) =>
  Object.fromEntries(
    Object.keys(after)
      .map((key) => [key, (after[key] - (before[key] ?? 0)) / calls])
      .filter(([, n]) => n > 0),
  );

async function main() {
  const { Client } = requireFromRoot('pg');
  log(`root ${ROOT}, logs in ${workDir}`);
  const upstream = await startFakeUpstream({ logDir: workDir });
  await upstream.setLatency(0);
  const tollgate = await startTollgate({
    infra,
    upstreamUrl: upstream.url,
    workers: 1,
    logDir: join(workDir, 'services'),
    runId,
    root: ROOT,
    readyTimeoutMs: 180_000,
    extraEnv: {
      OTEL_EXPORTER_OTLP_ENDPOINT: '',
      TOLLGATE_WORKERS: '1',
      RELAY_USAGE_SPOOL_DIR: join(workDir, 'spool'),
      TOLLGATE_READY_TIMEOUT_MS: '180000',
      ...(args.count ? { NODE_OPTIONS: `--require ${PRELOAD}`, KAFKA_REQUESTS_DIR: countDir } : {}),
    },
  });
  const { platform, customer } = tollgate;
  const billingDb = new Client({ connectionString: tollgate.billingDatabaseUrl });
  const settled = async () =>
    Number((await billingDb.query('select count(*) as n from usage_logs')).rows[0].n);
  const report = { label: args.label, root: ROOT, runId, at: new Date().toISOString(), windows: {} };
  try {
    await billingDb.connect();
    const own = Object.fromEntries(SERVICES.map((name) => [name, platform.services[name].pid]));
    const groups = { own, infra: infrastructurePids(infra, log) };
    const Pool = requireFromRoot('undici').Pool;
    const calls = Number(args.calls);
    log(`warm-up: ${args.warmup} calls at c=16`);
    await sendChatCalls({ Pool, url: platform.url, customer, calls: Number(args.warmup), concurrency: 16 });
    await sleep(Number(args['tail-ms']) + 1000);

    const idleBefore = await requestCounts();
    const idleWindow = openCpuWindow(groups);
    await sleep(Number(args['idle-ms']));
    const idle = idleWindow.close(1);
    const idleAfter = await requestCounts();
    const idleSeconds = idle.wallMs / 1000;
    report.idle = {
      msPerSecond: Object.fromEntries(Object.entries(idle.cpuMs).map(([n, ms]) => [n, ms / idleSeconds])),
      requestsPerSecond: diff(idleAfter, idleBefore, idleSeconds),
    };
    log(
      `idle ms/s: ${JSON.stringify(report.idle.msPerSecond, (k, v) => (typeof v === 'number' ? +v.toFixed(1) : v))}`,
    );

    const loads = args.rates
      ? args.rates.split(',').map((rate) => ({ name: `${rate}/s`, rate: Number(rate) }))
      : args.concurrency.split(',').map((c) => ({ name: `c=${c}`, concurrency: Number(c) }));
    for (const { name, rate, concurrency } of loads) {
      const rounds = [];
      for (let round = 0; round < Number(args.rounds); round++) {
        const before = await requestCounts();
        const settledBefore = await settled();
        const window = openCpuWindow(groups);
        const load = rate
          ? await sendAtRate({
              Pool,
              url: platform.url,
              customer,
              calls,
              rate,
              maxInFlight: Number(args['max-in-flight']),
            })
          : await sendChatCalls({ Pool, url: platform.url, customer, calls, concurrency });
        const loadEnd = performance.now();
        let drainMs = null;
        while (performance.now() - loadEnd < 15_000) {
          if ((await settled()) >= settledBefore + calls) {
            drainMs = performance.now() - loadEnd;
            break;
          }
          await sleep(10);
        }
        await sleep(Math.max(0, Number(args['tail-ms']) - (performance.now() - loadEnd)));
        const cpu = window.close(calls);
        if (groups.infra.kafka) cpu.perCall['kafka JIT'] = cpu.jitPerCall.kafka ?? 0;
        const after = await requestCounts();
        const requests = diff(after, before, calls);
        rounds.push({ ...load, rps: calls / load.seconds, drainMs, perCall: cpu.perCall, requests });
        log(
          `${name} round ${round + 1}: ${load.failed} failed, ${(calls / load.seconds).toFixed(0)}/s, drain ${drainMs?.toFixed(0)} ms; ` +
            `CPU ms/call ${Object.entries(cpu.perCall)
              .map(([n, ms]) => `${n} ${ms.toFixed(3)}`)
              .join(', ')}`,
        );
      }
      const names = Object.keys(rounds[0].perCall);
      const keys = [...new Set(rounds.flatMap((r) => Object.keys(r.requests)))].sort();
      report.windows[name] = {
        rps: median(rounds.map((r) => r.rps)),
        drainMs: median(rounds.map((r) => r.drainMs ?? Number.NaN)),
        perCall: Object.fromEntries(names.map((n) => [n, median(rounds.map((r) => r.perCall[n]))])),
        requestsPerCall: Object.fromEntries(
          keys.map((k) => [k, median(rounds.map((r) => r.requests[k] ?? 0))]),
        ),
        rounds,
      };
    }
    if (args.out) writeFileSync(args.out, JSON.stringify(report, null, 2));
    console.log(
      `Kafka requests and CPU per call (${args.label || ROOT}), medians of ${args.rounds} rounds of ${calls}`,
    );
    console.log(
      `idle: CPU ms/s ${Object.entries(report.idle.msPerSecond)
        .map(([n, v]) => `${n} ${v.toFixed(1)}`)
        .join(', ')}`,
    );
    for (const [key, n] of Object.entries(report.idle.requestsPerSecond))
      console.log(`  ${key.padEnd(48)} ${n.toFixed(2)}/s`);
    for (const [name, w] of Object.entries(report.windows)) {
      console.log(`${name}: ${w.rps.toFixed(0)} calls/s, billing drain ${w.drainMs.toFixed(0)} ms`);
      console.log(
        `  CPU ms/call ${Object.entries(w.perCall)
          .map(([n, v]) => `${n} ${v.toFixed(3)}`)
          .join(', ')}`,
      );
      const total = Object.values(w.requestsPerCall).reduce((a, b) => a + b, 0);
      if (total > 0) console.log(`  Kafka requests per call: ${total.toFixed(3)}`);
      for (const [key, n] of Object.entries(w.requestsPerCall))
        console.log(`    ${key.padEnd(48)} ${n.toFixed(4)}`);
    }
  } finally {
    await billingDb.end().catch(() => undefined);
    await tollgate.stop();
    await upstream.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
