#!/usr/bin/env node
// Time to first token on short streams, and what such a stream costs gateway and relay (issue 17, H34).
// For each checkout of --roots (built: node scripts/build.mjs), one relay and one gateway process (one
// worker each, distributed mode, on the Redis and Kafka named by REDIS_URL and KAFKA_BROKERS), all
// beside one fake upstream sending 4 chunks 5 ms apart (the bench's ttft scenario). Each round times
// one stream after another for --seconds (the Go load client of bench/load/streams-go, as the bench
// does) straight to the fake upstream, then through each checkout's gateway (and relay alone with
// --relay), the checkouts in alternating order; every window reads gateway's and relay's utime + stime
// from /proc before and after, so CPU per stream comes from the same window as the TTFT.
//
//   node scripts/build.mjs
//   export TOLLGATE_INFRA_DIR=/tmp/ttft-infra                 # a Redis and Kafka of the run's own
//   bash scripts/infra.sh up redis kafka && eval "$(bash scripts/infra.sh env redis kafka)"
//   node bench/micro/ttft-streams.mjs --roots /tmp/a,/tmp/b [--rounds 6] [--seconds 8] [--relay]
//                                     [--plain] [--strace] [--out FILE.json]
//                                     [--hold 5000 --hold-rounds 3 [--hold-ramp-ms N] [--hold-ms 8000]]
//                                     [--embedded] [--variants stream,stream-usage,plain,plain-gap [--gap-ms 15]]
//
// --plain also times non-streaming calls one after another (undici from this process, same client for
// every target) over the same targets, for the added latency a stream's first token is compared with.
// --strace counts gateway's and relay's system calls over an extra window per checkout (strace -c -f;
// it slows what it traces: read its counts per stream, not that window's times).
// --embedded starts each checkout in embedded mode instead (its bench/lib/embedded.mjs; one process, whose
// CPU is gateway's and relay's together): for --hold, with --rounds 0.
// --hold N then holds N streams through each checkout's gateway, --hold-rounds times in alternating order
// (holdWindow below; pass --service-env GATEWAY_BACKEND_CONNECTIONS=12000,RELAY_UPSTREAM_CONNECTIONS=12000
// as the bench does; --rounds 0 skips the short streams).
// --variants stream,plain-gap,… times other shapes of one call after another instead of the short streams
// (VARIANTS below: plain calls read by the same Go client, pauses of --gap-ms after each call, the whole
// stream in one upstream write, include_usage), each against direct and every checkout, alternating,
// with CPU per call of every process: what a stream's first token pays that a plain call does not.
// TTFT is the client's, from sending the request to the first read holding generated text; "added" is
// a target's p50 minus the direct p50 of the same round.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { summarizeCpuProfile } from '../lib/cpu-profile.mjs';
import { infrastructureFromEnv } from '../lib/infra.mjs';
import { freePort } from '../lib/net.mjs';
import { cpuTicks, nodeProcesses, waitFor } from '../lib/processes.mjs';
import { seedRelayCustomer } from '../lib/relay-customer.mjs';
import { commonServiceEnv, gatewayEnv, relayEnv, serviceSecrets } from '../lib/standalone-services.mjs';
import { namedLog } from '../lib/log.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const PROFILER_PRELOAD = join(HERE, '..', 'lib', 'cpu-profiler.preload.cjs');
const { values: args } = parseArgs({
  options: {
    roots: { type: 'string', default: join(HERE, '..', '..') },
    rounds: { type: 'string', default: '4' },
    seconds: { type: 'string', default: '8' },
    chunks: { type: 'string', default: '4' },
    'chunk-ms': { type: 'string', default: '5' },
    relay: { type: 'boolean', default: false },
    plain: { type: 'boolean', default: false },
    'plain-calls': { type: 'string', default: '1500' },
    strace: { type: 'boolean', default: false },
    timeline: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    'service-env': { type: 'string', default: '' },
    hold: { type: 'string', default: '0' },
    'hold-ms': { type: 'string', default: '8000' },
    'hold-rounds': { type: 'string', default: '1' },
    'hold-ramp-ms': { type: 'string' },
    embedded: { type: 'boolean', default: false },
    variants: { type: 'string', default: '' },
    'gap-ms': { type: 'string', default: '15' },
    out: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(
    'node bench/micro/ttft-streams.mjs [--roots DIR,DIR] [--rounds 4] [--seconds 8] [--chunks 4] [--chunk-ms 5] [--relay] [--plain] [--strace] [--out FILE.json]',
  );
  process.exit(0);
}
infrastructureFromEnv(['REDIS_URL', 'KAFKA_BROKERS']);
const roots = args.roots.split(',').map((r) => resolve(r));
for (const root of roots) {
  for (const entry of ['apps/relay/dist/main.js', 'apps/gateway/dist/main.js']) {
    if (!existsSync(join(root, entry))) {
      console.error(`${join(root, entry)} is missing: node scripts/build.mjs there first`);
      process.exit(2);
    }
  }
}

const runId = `t${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
// Short: relay's spool directory holds lock sockets (at most 80 bytes of path).
const workDir = join(tmpdir(), `ttft-${runId}`);
mkdirSync(workDir, { recursive: true });
const log = namedLog('ttft-streams');
const CLK_TCK = 100;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const percentile = (sorted, p) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];

// ---- processes

const { start, stopAll } = nodeProcesses({ logDir: workDir });
const startProcess = (name, file, argv, env, ready, cwd) => start(name, file, argv, { ...env, cwd }, ready);

function goClient() {
  const out = execFileSync('bash', [join(HERE, '..', '..', 'scripts', 'streams-load.sh')], {
    encoding: 'utf8',
  });
  return out.trim().split('\n').at(-1);
}

// ---- one checkout: relay and gateway

async function startCheckout(root, index, upstreamUrl, KafkaEventBus) {
  const requireFromRoot = createRequire(join(root, 'package.json'));
  const label = `${basename(root)}#${index}`;
  const secrets = serviceSecrets();
  const { encryptionKey } = secrets;
  const [relayPort, gatewayPort] = [await freePort(), await freePort()];
  const relayUrl = `http://127.0.0.1:${relayPort}`;
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  const common = {
    ...commonServiceEnv(secrets),
    ...Object.fromEntries(
      args['service-env']
        .split(',')
        .filter((pair) => pair !== '')
        .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
    ),
    ...(args.profile
      ? {
          NODE_OPTIONS: `--require ${PROFILER_PRELOAD}`,
          BENCH_CPU_PROFILE_DIR: join(workDir, `profiles-${index}`),
        }
      : {}),
  };
  if (args.profile) mkdirSync(join(workDir, `profiles-${index}`));
  const relay = startProcess(
    `relay-${index}`,
    join(root, 'apps/relay/dist/main.js'),
    [],
    { ...common, ...relayEnv({ port: relayPort, spoolDir: join(workDir, `spool-${index}`) }) },
    undefined,
    root,
  );
  const gateway = startProcess(
    `gateway-${index}`,
    join(root, 'apps/gateway/dist/main.js'),
    [],
    { ...common, ...gatewayEnv({ port: gatewayPort, relayUrl }) },
    undefined,
    root,
  );
  const bus = new KafkaEventBus({
    brokers: process.env.KAFKA_BROKERS.split(','),
    clientId: `ttft-${runId}-${index}`,
  });
  const customer = await seedRelayCustomer({
    requireFromRoot,
    bus,
    encryptionKey,
    upstreamUrl,
    runId: `${runId}${index}`,
    prefix: 'ttft',
    label: 'TTFT',
  });
  await waitFor(`relay ${label}`, async () => (await fetch(`${relayUrl}/health/ready`)).ok || 'not ready');
  await waitFor(
    `gateway ${label}`,
    async () => (await fetch(`${gatewayUrl}/health/ready`)).ok || 'not ready',
  );
  const headers = { authorization: `Bearer ${customer.apiKey}`, 'content-type': 'application/json' };
  await waitFor(`a call through ${label}`, async () => {
    const res = await fetch(`${gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: customer.model, messages: [{ role: 'user', content: 'hi' }] }),
    });
    if (res.status === 402) await customer.republishBalance();
    return res.status === 200 || `${res.status} ${await res.text()}`;
  });
  return {
    label,
    root,
    bus,
    customer,
    headers,
    relayUrl,
    gatewayUrl,
    requireFromRoot,
    pids: { gateway: gateway.child.pid, relay: relay.child.pid },
  };
}

// ---- one checkout in embedded mode (--embedded): every service in one process, as `npm start`

async function startEmbeddedCheckout(root, index, upstreamUrl) {
  // The checkout's own bench helper: it starts that checkout's launcher and seeds it over its HTTP API.
  const { startEmbeddedTollgate } = await import(join(root, 'bench', 'lib', 'embedded.mjs'));
  const dir = join(workDir, `embedded-${index}`);
  mkdirSync(dir, { recursive: true });
  const started = await startEmbeddedTollgate({ upstreamUrl, logDir: dir, runId: `${runId}${index}` });
  return {
    label: `${basename(root)}#${index}`,
    root,
    customer: started.customer,
    headers: { authorization: `Bearer ${started.customer.apiKey}`, 'content-type': 'application/json' },
    gatewayUrl: started.url,
    pids: { embedded: started.pid },
    stop: started.stop,
  };
}

// ---- load

function runGo(binary, url, headers, model, seconds, extra = []) {
  const out = execFileSync(
    binary,
    [
      ...extra,
      '--url',
      `${url}/v1/chat/completions`,
      '--headers',
      JSON.stringify(headers),
      '--model',
      model,
      '--mode',
      'ttft',
      '--duration-s',
      String(seconds),
    ],
    { encoding: 'utf8', maxBuffer: 1 << 20 },
  );
  return JSON.parse(out.trim().split('\n').at(-1));
}

/** Non-streaming calls one after another; wall time of each, in ms. */
async function runPlain(Pool, url, headers, model, calls) {
  const pool = new Pool(url, { connections: 1, pipelining: 1 });
  const body = JSON.stringify({
    model,
    messages: [{ role: 'user', content: 'Say hello to the benchmark.' }],
  });
  const times = [];
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    const res = await pool.request({ path: '/v1/chat/completions', method: 'POST', headers, body });
    await res.body.text();
    if (res.statusCode !== 200) throw new Error(`plain call: ${res.statusCode}`);
    times.push(performance.now() - started);
  }
  await pool.close();
  return times.sort((a, b) => a - b);
}

async function window(checkout, pids, run) {
  const before = Object.fromEntries(Object.entries(pids).map(([n, pid]) => [n, cpuTicks(pid)]));
  const result = await run();
  const after = Object.fromEntries(Object.entries(pids).map(([n, pid]) => [n, cpuTicks(pid)]));
  const cpuMs = Object.fromEntries(
    Object.keys(pids).map((n) => [n, (after[n] - before[n]) * (1000 / CLK_TCK)]),
  );
  return { ...result, cpuMs };
}

async function straceWindow(binary, checkout, seconds, model) {
  const tracers = Object.entries(checkout.pids).map(([name, pid]) => {
    const file = join(workDir, `strace-${checkout.label.replace('#', '-')}-${name}.txt`);
    const child = spawn('strace', ['-c', '-f', '-o', file, '-p', String(pid)], { stdio: 'ignore' });
    return { name, file, child };
  });
  await new Promise((r) => setTimeout(r, 500));
  const result = runGo(binary, checkout.gatewayUrl, checkout.headers, model, seconds);
  for (const t of tracers) t.child.kill('SIGINT');
  await Promise.all(tracers.map((t) => new Promise((r) => t.child.once('exit', r))));
  const counts = {};
  for (const t of tracers) {
    counts[t.name] = {};
    for (const line of readFileSync(t.file, 'utf8').split('\n')) {
      const m = /^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(\w+)$/.exec(line);
      if (m && m[2] !== 'total') counts[t.name][m[2]] = Number(m[1]) / result.streams;
    }
  }
  return { streams: result.streams, perStream: counts };
}

// ---- holding many streams (--hold N)

const HOLD_CHUNK_MS = 400;

function rssKiB(pid) {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/**
 * N streams opened through the gateway over --hold-ramp-ms (default N: 1 per ms, as the bench's streams
 * scenario), each a chunk every 400 ms, lasting --hold-ms past the ramp. Gateway's and relay's CPU and
 * RSS are sampled every 200 ms. The figure to compare checkouts by is CPU per stream over the whole run
 * (every stream carries the same chunks). When all N were open at once (the client's peakOpen), CPU per
 * chunk also comes from the window where every stream is open and none has ended (from 2 s after the
 * ramp to 0.5 s before the first stream's end): that window's CPU over the N × 2.5 chunks per second it
 * carried through each hop; and CPU per stream besides its chunks (opening, end, usage event) is the
 * whole run's CPU less its chunks at that rate, over N. With opening behind, those two are not given.
 */
async function holdWindow(binary, checkout, upstreamUrl, n) {
  const rampMs = Number(args['hold-ramp-ms'] ?? n);
  const chunks = Math.ceil((rampMs + Number(args['hold-ms'])) / HOLD_CHUNK_MS);
  await setUpstreamOptions(upstreamUrl, { chunkMs: HOLD_CHUNK_MS, chunks });
  const samples = [];
  const sample = () => {
    const at = performance.now();
    const row = { at };
    for (const [name, pid] of Object.entries(checkout.pids))
      row[name] = { ticks: cpuTicks(pid), rssKiB: rssKiB(pid) };
    samples.push(row);
  };
  const overflowsBefore = listenOverflows();
  sample();
  const started = samples[0].at;
  const timer = setInterval(sample, 200);
  const out = await new Promise((resolveRun, rejectRun) =>
    execFile(
      binary,
      [
        '--url',
        `${checkout.gatewayUrl}/v1/chat/completions`,
        '--headers',
        JSON.stringify(checkout.headers),
        '--model',
        checkout.customer.model,
        '--mode',
        'hold',
        '--concurrency',
        String(n),
        '--ramp-ms',
        String(rampMs),
        '--timeout-ms',
        '300000',
      ],
      { encoding: 'utf8', maxBuffer: 1 << 22 },
      (error, stdout) => (error ? rejectRun(error) : resolveRun(stdout)),
    ),
  );
  clearInterval(timer);
  sample();
  const r = JSON.parse(out.trim().split('\n').at(-1));
  const windowFrom = started + rampMs + 2000;
  const windowTo = started + chunks * HOLD_CHUNK_MS - 500;
  const inWindow = samples.filter((x) => x.at >= windowFrom && x.at <= windowTo);
  const result = {
    streams: n,
    completed: r.completed,
    failed: r.failed,
    stalled: r.stalled,
    peakOpen: r.peakOpen,
    ttftP50: r.ttftP50,
    ttftP99: r.ttftP99,
    maxGap: r.maxGap,
    chunks,
    listenOverflows: listenOverflows() - overflowsBefore,
  };
  for (const name of Object.keys(checkout.pids)) {
    const totalMs = (samples.at(-1)[name].ticks - samples[0][name].ticks) * (1000 / CLK_TCK);
    result[`${name}PeakRssMiB`] = Math.max(...samples.map((x) => x[name].rssKiB)) / 1024;
    if (inWindow.length >= 2 && r.peakOpen === n) {
      const first = inWindow[0];
      const last = inWindow.at(-1);
      const seconds = (last.at - first.at) / 1000;
      const windowMs = (last[name].ticks - first[name].ticks) * (1000 / CLK_TCK);
      const perChunkMs = windowMs / (n * seconds * (1000 / HOLD_CHUNK_MS));
      result.allOpenSeconds = seconds;
      result[`${name}HoldCpuPerS`] = windowMs / seconds;
      result[`${name}UsPerChunk`] = perChunkMs * 1000;
      result[`${name}MsPerStream`] = (totalMs - perChunkMs * r.completed * chunks) / n;
    }
    result[`${name}CpuMs`] = totalMs;
    // The busiest second: a process at ~1 core then was the limit itself, one well below it was waiting
    // for the machine (or for the other process).
    let peakCores = 0;
    for (const [i, a] of samples.entries()) {
      const b = samples.find((x, j) => j > i && x.at - a.at >= 1000);
      if (b === undefined) break;
      peakCores = Math.max(peakCores, ((b[name].ticks - a[name].ticks) * (1000 / CLK_TCK)) / (b.at - a.at));
    }
    result[`${name}PeakCores`] = peakCores;
  }
  return result;
}

/** Connections the kernel dropped because a listen queue was full (the whole machine: it may be shared). */
function listenOverflows() {
  const lines = readFileSync('/proc/net/netstat', 'utf8').split('\n');
  const at = lines.findIndex((l) => l.startsWith('TcpExt:'));
  const names = lines[at].split(/\s+/);
  return Number(lines[at + 1].split(/\s+/)[names.indexOf('ListenOverflows')]);
}

async function setUpstreamOptions(url, options) {
  const res = await fetch(`${url}/__fake/options`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(options),
  });
  if (!res.ok) throw new Error(`fake upstream refused options: ${res.status}`);
}

const fmt = (x, digits = 1) => (x === undefined || x === null ? '?' : x.toFixed(digits));

// ---- --variants: shapes of one call after another, timed to the first read holding generated text

/**
 * `plain` is a non-streaming call read by the same client (its first content is its whole answer);
 * `-gap` pauses --gap-ms after each call (by default a short stream's lifetime, so that a plain call
 * meets processes as idle as a stream's first token does); `-burst` has the upstream send the whole
 * stream in one write (no pauses inside it); `-usage` asks for stream_options.include_usage.
 */
const VARIANTS = {
  stream: {},
  'stream-usage': { usage: true },
  'stream-gap': { gap: true },
  'stream-burst': { upstream: { chunkMs: 0 } },
  'stream-burst-gap': { upstream: { chunkMs: 0 }, gap: true },
  plain: { plain: true },
  'plain-gap': { plain: true, gap: true },
};

function variantArgs(variant, model) {
  const out = [];
  if (variant.gap) out.push('--gap-ms', args['gap-ms']);
  if (variant.plain || variant.usage) {
    const body = {
      model,
      messages: [{ role: 'user', content: 'Stream a story to the benchmark.' }],
      stream: !variant.plain,
      ...(variant.usage ? { stream_options: { include_usage: true } } : {}),
    };
    out.push('--body', JSON.stringify(body));
  }
  if (variant.plain) out.push('--done', '"finish_reason"');
  return out;
}

// ---- the run

async function main() {
  const here = createRequire(join(roots[0], 'package.json'));
  const { KafkaEventBus } = here('@tollgate/events');
  const binary = goClient();
  log(`roots ${roots.join(', ')}; logs in ${workDir}; client ${binary}`);
  const upstream = await startProcess(
    'fake-upstream',
    join(roots[0], 'scripts', 'fake-upstream.mjs'),
    ['--port', '0', '--latency-ms', '0', '--chunks', args.chunks, '--chunk-ms', args['chunk-ms']],
    {},
    /fake-upstream listening on (http:\/\/\S+)/,
    roots[0],
  );
  const upstreamUrl = upstream.match[1];
  const checkouts = [];
  for (const [i, root] of roots.entries())
    checkouts.push(
      args.embedded
        ? await startEmbeddedCheckout(root, i, upstreamUrl)
        : await startCheckout(root, i, upstreamUrl, KafkaEventBus),
    );
  const seconds = Number(args.seconds);
  const directModel = 'gpt-4o-mini';
  const directHeaders = { authorization: 'Bearer sk-fake-openai-key', 'content-type': 'application/json' };

  log('warm-up: 3 s of streams through each checkout');
  for (const c of checkouts) {
    runGo(binary, c.gatewayUrl, c.headers, c.customer.model, 3);
    if (args.relay) runGo(binary, c.relayUrl, c.headers, c.customer.model, 1);
  }

  // Profiles cover the measured rounds only (the preload starts V8's profiler once this file exists).
  if (args.profile)
    for (const [i] of checkouts.entries()) writeFileSync(join(workDir, `profiles-${i}`, 'start'), '');
  const rounds = [];
  // With --variants, --rounds counts their rounds instead.
  for (let round = 0; round < (args.variants === '' ? Number(args.rounds) : 0); round++) {
    const direct = runGo(binary, upstreamUrl, directHeaders, directModel, seconds);
    const entry = {
      round,
      direct: { streams: direct.streams, ttftP50: direct.ttftP50, ttftP99: direct.ttftP99 },
    };
    const order = round % 2 === 0 ? checkouts : [...checkouts].reverse();
    for (const c of order) {
      const targets = args.relay
        ? [
            ['gateway', c.gatewayUrl],
            ['relay', c.relayUrl],
          ]
        : [['gateway', c.gatewayUrl]];
      for (const [via, url] of targets) {
        const r = await window(c, c.pids, async () =>
          runGo(binary, url, c.headers, c.customer.model, seconds),
        );
        const key = `${c.label} ${via}`;
        entry[key] = {
          streams: r.streams,
          failed: r.failed,
          ttftP50: r.ttftP50,
          ttftP99: r.ttftP99,
          addedP50: r.ttftP50 - direct.ttftP50,
          relayCpuMsPerStream: r.cpuMs.relay / r.streams,
          gatewayCpuMsPerStream: r.cpuMs.gateway / r.streams,
        };
        log(
          `round ${round + 1} ${key}: ${r.streams} streams (${r.failed} failed), TTFT p50 ${r.ttftP50.toFixed(3)} ms ` +
            `(direct ${direct.ttftP50.toFixed(3)}, added ${(r.ttftP50 - direct.ttftP50).toFixed(3)}), p99 ${r.ttftP99.toFixed(3)}; ` +
            `CPU ms/stream relay ${(r.cpuMs.relay / r.streams).toFixed(2)}, gateway ${(r.cpuMs.gateway / r.streams).toFixed(2)}`,
        );
      }
    }
    if (args.plain) {
      const Pool = here('undici').Pool;
      const calls = Number(args['plain-calls']);
      const d = await runPlain(Pool, upstreamUrl, directHeaders, directModel, calls);
      entry.plainDirectP50 = percentile(d, 50);
      for (const c of order) {
        const g = await runPlain(Pool, c.gatewayUrl, c.headers, c.customer.model, calls);
        entry[`${c.label} plain`] = {
          p50: percentile(g, 50),
          addedP50: percentile(g, 50) - percentile(d, 50),
        };
        log(
          `round ${round + 1} ${c.label} plain: p50 ${percentile(g, 50).toFixed(3)} ms, added ${(percentile(g, 50) - percentile(d, 50)).toFixed(3)}`,
        );
      }
    }
    rounds.push(entry);
  }

  // --variants: the same sequential calls in several shapes, each against direct and every checkout
  // (alternating), to tell what a stream pays before its first token that a plain call does not.
  const variantRounds = [];
  const variantNames = args.variants.split(',').filter((v) => v !== '');
  for (const name of variantNames) if (!(name in VARIANTS)) throw new Error(`unknown variant ${name}`);
  for (let round = 0; round < (variantNames.length > 0 ? Number(args.rounds) : 0); round++) {
    for (const name of variantNames) {
      const variant = VARIANTS[name];
      await setUpstreamOptions(upstreamUrl, {
        chunks: Number(args.chunks),
        chunkMs: Number(args['chunk-ms']),
        ...variant.upstream,
      });
      const extra = (model) => variantArgs(variant, model);
      const direct = runGo(binary, upstreamUrl, directHeaders, directModel, seconds, extra(directModel));
      const entry = {
        round,
        variant: name,
        direct: { calls: direct.streams, p50: direct.ttftP50, p99: direct.ttftP99 },
      };
      const order = (round + variantNames.indexOf(name)) % 2 === 0 ? checkouts : [...checkouts].reverse();
      for (const c of order) {
        const from = Date.now();
        const r = await window(c, c.pids, async () =>
          runGo(binary, c.gatewayUrl, c.headers, c.customer.model, seconds, extra(c.customer.model)),
        );
        const to = Date.now();
        const cpu = Object.fromEntries(Object.entries(r.cpuMs).map(([n, ms]) => [n, ms / r.streams]));
        entry[c.label] = {
          from,
          to,
          calls: r.streams,
          failed: r.failed,
          p50: r.ttftP50,
          p99: r.ttftP99,
          added: r.ttftP50 - direct.ttftP50,
          cpu,
        };
        log(
          `round ${round + 1} ${name} ${c.label}: ${r.streams} calls (${r.failed} failed), first content p50 ${r.ttftP50.toFixed(3)} ms ` +
            `(direct ${direct.ttftP50.toFixed(3)}, added ${(r.ttftP50 - direct.ttftP50).toFixed(3)}), p99 ${r.ttftP99.toFixed(3)}; CPU ms/call ` +
            Object.entries(cpu)
              .map(([n, ms]) => `${n} ${ms.toFixed(2)}`)
              .join(', '),
        );
      }
      variantRounds.push(entry);
    }
  }
  await setUpstreamOptions(upstreamUrl, { chunks: Number(args.chunks), chunkMs: Number(args['chunk-ms']) });
  for (const name of variantNames) {
    const of = variantRounds.filter((e) => e.variant === name);
    for (const c of checkouts) {
      const cpuNames = Object.keys(of[0][c.label].cpu);
      console.log(
        `${name} ${c.label}: added p50 ${median(of.map((e) => e[c.label].added)).toFixed(3)} ms (direct ${median(of.map((e) => e.direct.p50)).toFixed(3)}), ` +
          `p99 ${median(of.map((e) => e[c.label].p99)).toFixed(3)} ms, CPU ms/call ` +
          cpuNames.map((n) => `${n} ${median(of.map((e) => e[c.label].cpu[n])).toFixed(3)}`).join(', ') +
          `, ${median(of.map((e) => e[c.label].calls))} calls/window (medians of ${of.length} rounds)`,
      );
    }
  }

  const holds = [];
  const holdLevel = Number(args.hold);
  if (holdLevel > 0) {
    for (let round = 0; round < Math.max(1, Number(args['hold-rounds'])); round++) {
      const order = round % 2 === 0 ? checkouts : [...checkouts].reverse();
      for (const c of order) {
        const h = await holdWindow(binary, c, upstreamUrl, holdLevel);
        holds.push({ round, checkout: c.label, ...h });
        const perProcess = Object.keys(c.pids)
          .map(
            (name) =>
              `${name}: ${fmt(h[`${name}CpuMs`] / holdLevel, 2)} ms CPU per stream, busiest second ${fmt(h[`${name}PeakCores`], 2)} cores, ` +
              `peak RSS ${fmt(h[`${name}PeakRssMiB`], 0)} MiB, all open (${fmt(h.allOpenSeconds)} s) ${fmt(h[`${name}UsPerChunk`])} µs/chunk ` +
              `and ${fmt(h[`${name}MsPerStream`], 2)} ms/stream besides`,
          )
          .join('; ');
        log(
          `hold ${holdLevel} round ${round + 1} ${c.label}: completed ${h.completed}, failed ${h.failed}, stalled ${h.stalled}, ` +
            `peak open ${h.peakOpen}, TTFT p50 ${fmt(h.ttftP50)} p99 ${fmt(h.ttftP99)} ms, max gap ${fmt(h.maxGap, 0)} ms, ` +
            `listen overflows ${h.listenOverflows} (machine); ${h.chunks} chunks a stream; ${perProcess}`,
        );
        // Every stream of the level has ended (and its usage event gone) before the next one.
        await new Promise((r) => setTimeout(r, 3000));
      }
    }
    await setUpstreamOptions(upstreamUrl, { chunkMs: Number(args['chunk-ms']), chunks: Number(args.chunks) });
  }

  const straces = {};
  if (args.strace) {
    for (const c of checkouts) {
      straces[c.label] = await straceWindow(binary, c, Math.min(seconds, 5), c.customer.model);
      log(`strace ${c.label}: ${JSON.stringify(straces[c.label].perStream)}`);
    }
  }

  if (args.timeline) {
    // Every read and write of gateway, relay and the fake upstream in one clock (perf trace: tracepoints,
    // not ptrace, so it barely slows them), and `ss -tnp` to name each descriptor's connection: one
    // stream's stages (request in, upstream request out, headers and chunks back, each hop's write).
    for (const c of checkouts) {
      const file = join(workDir, `timeline-${c.label.replace('#', '-')}.txt`);
      const pids = [c.pids.gateway, c.pids.relay, upstream.child.pid].join(',');
      const tracer = spawn(
        'perf',
        ['trace', '-o', file, '-e', 'read,readv,write,writev,epoll_pwait,epoll_wait', '-p', pids],
        { stdio: 'ignore' },
      );
      await new Promise((r) => setTimeout(r, 1000));
      runGo(binary, c.gatewayUrl, c.headers, c.customer.model, 1);
      writeFileSync(`${file}.ss`, execFileSync('ss', ['-tnp'], { encoding: 'utf8' }));
      // Then non-streaming calls one after another, the same way, for their stages.
      await new Promise((r) => setTimeout(r, 300));
      await runPlain(here('undici').Pool, c.gatewayUrl, c.headers, c.customer.model, 200);
      tracer.kill('SIGINT');
      await new Promise((r) => tracer.once('exit', r));
      log(
        `timeline ${c.label}: ${file} (gateway ${c.pids.gateway}, relay ${c.pids.relay}, upstream ${upstream.child.pid})`,
      );
    }
  }

  const summary = {};
  for (const key of Object.keys(rounds[0] ?? {}).filter((k) => k.includes(' ') && !k.endsWith(' plain'))) {
    const of = rounds.map((r) => r[key]);
    summary[key] = {
      addedP50: median(of.map((x) => x.addedP50)),
      ttftP99: median(of.map((x) => x.ttftP99)),
      relayCpuMsPerStream: median(of.map((x) => x.relayCpuMsPerStream)),
      gatewayCpuMsPerStream: median(of.map((x) => x.gatewayCpuMsPerStream)),
      streams: median(of.map((x) => x.streams)),
    };
  }
  for (const [key, s] of Object.entries(summary)) {
    console.log(
      `${key}: added TTFT p50 ${s.addedP50.toFixed(3)} ms (median of ${rounds.length} rounds), p99 ${s.ttftP99.toFixed(3)} ms, ` +
        `CPU ms/stream relay ${s.relayCpuMsPerStream.toFixed(2)}, gateway ${s.gatewayCpuMsPerStream.toFixed(2)}, ${s.streams} streams/window`,
    );
  }
  if (args.out)
    writeFileSync(
      args.out,
      JSON.stringify(
        { runId, at: new Date().toISOString(), roots, rounds, variantRounds, summary, holds, straces },
        null,
        2,
      ),
    );
  for (const c of checkouts) await (c.bus ? c.bus.close() : c.stop());
}

async function summarizeProfiles() {
  if (!args.profile) return;
  const { readdirSync } = await import('node:fs');
  for (const [i, root] of roots.entries()) {
    const dir = join(workDir, `profiles-${i}`);
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
      const summary = summarizeCpuProfile(join(dir, file), { top: 25, inclusive: 60 });
      console.log(`\n== ${basename(root)}#${i} ${file}: ${summary.totalMs.toFixed(0)} ms busy`);
      for (const f of summary.functions) console.log(`  self ${(f.share * 100).toFixed(2)}%  ${f.name}`);
      for (const f of summary.inclusiveFunctions)
        console.log(`  incl ${(f.share * 100).toFixed(2)}%  ${f.name}`);
    }
  }
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(async () => {
    await stopAll();
    await summarizeProfiles();
  });
