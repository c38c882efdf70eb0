#!/usr/bin/env node
// What an open SSE stream costs relay (issue 17, H30): memory per stream held, and CPU per stream
// opened while others are held. Relay runs alone (one process, no gateway), the fake upstream sends a
// chunk every --chunk-ms for as long as the run lasts, and this script holds the streams itself (one
// connection each, as the gateway opens them). At each level of --levels it asks relay, over an IPC
// channel its preload opens (relay-stream-memory.preload.cjs), for process.memoryUsage() after two
// full GCs and its live handles by type; with --snapshots also for a V8 heap snapshot, summarised here
// as what the stream level added per stream, by constructor. Then, with the last level held, the CPU
// of relay holding them (per second) and of opening --open more (per stream opened, holding's share
// over the same seconds taken out). Last, every stream is closed and memory read again (what stays).
//
//   node scripts/build.mjs
//   export TOLLGATE_INFRA_DIR=/tmp/relay-memory-infra    # a Redis and Kafka of the run's own
//   bash scripts/infra.sh up redis kafka && eval "$(bash scripts/infra.sh env redis kafka)"
//   node bench/micro/relay-stream-memory.mjs [--levels 0,500,2000] [--open 500] [--snapshots]
//                                          [--root /other/checkout] [--out FILE.json] [--label TEXT]
//
// Streams ask for usage (stream_options.include_usage), as the SDKs do; the run's customer, channel
// and price are published straight onto the compacted topics relay reads (as hot-path-cpu.mjs does).
// Writing a heap snapshot takes relay's native memory up by hundreds of MiB that it keeps: read RSS
// from a run without --snapshots, and what holds the heap from one with them. --grow-ms holds the
// last level that much longer and reads again: what a stream gains per chunk. --prompt-bytes pads the
// user message; --relay-env K=V,… sets relay's environment (e.g. GLIBC_TUNABLES); --usage no opens
// streams that do not ask for usage (as the bench's streams scenario does). Relay gets the V8 flags
// the launcher gives it, and --relay-node-args A,B more (e.g. --trace-gc, its log in the run's logs).
// --promoted-profile FILE writes, for the --grow-ms window, V8's sampling heap profile of the objects
// that outlived young-generation GCs (promoted: garbage a full GC finds later, or live). Each reading is taken as found (before GC: what the bench's RSS sampler sees),
// after two full GCs, and after glibc's malloc_trim(0) (what the C heap kept free).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { infrastructureFromEnv } from '../lib/infra.mjs';
import { freePort } from '../lib/net.mjs';
import { cpuTicks, nodeProcesses, waitFor } from '../lib/processes.mjs';
import { seedRelayCustomer } from '../lib/relay-customer.mjs';
import { commonServiceEnv, relayEnv, serviceSecrets } from '../lib/standalone-services.mjs';
import { namedLog } from '../lib/log.mjs';

const PRELOAD = fileURLToPath(new URL('./relay-stream-memory.preload.cjs', import.meta.url));

const { values: args } = parseArgs({
  options: {
    root: { type: 'string', default: join(dirname(fileURLToPath(import.meta.url)), '..', '..') },
    levels: { type: 'string', default: '0,500,2000' },
    open: { type: 'string', default: '500' },
    'chunk-ms': { type: 'string', default: '400' },
    'opens-per-ms': { type: 'string', default: '0.5' },
    'hold-window-ms': { type: 'string', default: '5000' },
    'grow-ms': { type: 'string', default: '20000' },
    'prompt-bytes': { type: 'string', default: '0' },
    'relay-env': { type: 'string', default: '' },
    usage: { type: 'string', default: 'yes' },
    'relay-node-args': { type: 'string', default: '' },
    'promoted-profile': { type: 'string' },
    snapshots: { type: 'boolean', default: false },
    out: { type: 'string' },
    label: { type: 'string', default: '' },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(
    'node bench/micro/relay-stream-memory.mjs [--root DIR] [--levels 0,500,2000] [--open 500] [--chunk-ms 400] [--opens-per-ms 0.5] [--snapshots] [--out FILE.json] [--label TEXT]',
  );
  process.exit(0);
}

const ROOT = resolve(args.root);
const requireFromRoot = createRequire(join(ROOT, 'package.json'));
const CLK_TCK = 100;
const CHUNK_MS = Number(args['chunk-ms']);
const LEVELS = args.levels.split(',').map(Number);
const EXTRA = Number(args.open);
/** `--usage no`: the streams do not ask for usage, as the bench's streams scenario's client does not. */
const INCLUDE_USAGE = args.usage !== 'no';
/** The user's message: a short one, or one of about --prompt-bytes (what a real conversation sends). */
const PROMPT =
  'Hold this stream open for the benchmark. ' +
  'lorem ipsum dolor sit amet '.repeat(Math.ceil(Number(args['prompt-bytes']) / 27));

infrastructureFromEnv(['REDIS_URL', 'KAFKA_BROKERS']);
if (!existsSync(join(ROOT, 'apps/relay/dist/main.js'))) {
  console.error(`${join(ROOT, 'apps/relay/dist/main.js')} is missing: node scripts/build.mjs first`);
  process.exit(2);
}

const runId = `m${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
// Short: relay's spool directory holds lock sockets (at most 80 bytes of path).
const workDir = join(tmpdir(), `rsm-${runId}`);
mkdirSync(workDir, { recursive: true });
const log = namedLog('relay-stream-memory');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---- processes

const { start: startProcess, stopAll } = nodeProcesses({ logDir: workDir, cwd: ROOT });

/** Relay's answer to one question over its preload's IPC channel. */
function ask(child, question, timeoutMs = 120_000) {
  const id = randomBytes(4).toString('hex');
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`relay did not answer ${question.type}`)), timeoutMs);
    const onMessage = (message) => {
      if (message?.id !== id) return;
      clearTimeout(timer);
      child.off('message', onMessage);
      resolvePromise(message);
    };
    child.on('message', onMessage);
    child.send({ ...question, id });
  });
}

// ---- streams: one connection each, held until closed

/** A stream opened on its own connection; `opened` resolves at its first SSE chunk. */
function openStream(relayUrl, customer) {
  const url = new URL('/v1/chat/completions', relayUrl);
  const body = JSON.stringify({
    model: customer.model,
    messages: [{ role: 'user', content: PROMPT }],
    stream: true,
    ...(INCLUDE_USAGE ? { stream_options: { include_usage: true } } : {}),
  });
  const startedAt = performance.now();
  const stream = {
    request: undefined,
    ended: false,
    failure: undefined,
    bytes: 0,
    chunks: 0,
    firstChunkMs: 0,
  };
  stream.opened = new Promise((resolveOpened) => {
    const request = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        agent: false,
        headers: {
          authorization: `Bearer ${customer.apiKey}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (response) => {
        if (response.statusCode !== 200) {
          stream.failure = `status ${response.statusCode}`;
          response.resume();
          resolveOpened(false);
          return;
        }
        response.on('data', (chunk) => {
          stream.bytes += chunk.length;
          stream.chunks++;
          if (stream.chunks === 1) {
            stream.firstChunkMs = performance.now() - startedAt;
            resolveOpened(true);
          }
        });
        response.on('end', () => {
          stream.ended = true;
          resolveOpened(stream.chunks > 0);
        });
        response.on('error', () => undefined);
      },
    );
    request.on('error', (error) => {
      stream.failure ??= error.code ?? error.message;
      resolveOpened(false);
    });
    request.end(body);
    stream.request = request;
  });
  return stream;
}

/** Opens `count` streams at `perMs` a millisecond and waits for each one's first chunk. */
async function openStreams(relayUrl, customer, count, perMs) {
  const streams = [];
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    streams.push(openStream(relayUrl, customer));
    const due = started + (i + 1) / perMs;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
  }
  const opened = await Promise.all(streams.map((s) => s.opened));
  const failed = opened.filter((ok) => !ok).length;
  const reasons = {};
  for (const s of streams) if (s.failure) reasons[s.failure] = (reasons[s.failure] ?? 0) + 1;
  const firsts = streams
    .filter((s) => s.chunks > 0)
    .map((s) => s.firstChunkMs)
    .sort((a, b) => a - b);
  const at = (q) => firsts[Math.min(firsts.length - 1, Math.floor(q * firsts.length))] ?? 0;
  return {
    streams,
    failed,
    reasons,
    seconds: (performance.now() - started) / 1000,
    firstChunkMs: { p50: at(0.5), p99: at(0.99), max: firsts.at(-1) ?? 0 },
  };
}

// ---- heap snapshots: what a level added, by constructor

function summarizeSnapshot(file) {
  const { snapshot, nodes, strings } = JSON.parse(readFileSync(file, 'utf8'));
  const fields = snapshot.meta.node_fields;
  const types = snapshot.meta.node_types[0];
  const width = fields.length;
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const byKey = new Map();
  for (let i = 0; i < nodes.length; i += width) {
    const type = types[nodes[i + typeAt]];
    const key = ['object', 'closure', 'native', 'hidden', 'array', 'object shape'].includes(type)
      ? `${type}: ${strings[nodes[i + nameAt]].slice(0, 80)}`
      : type;
    const entry = byKey.get(key) ?? { count: 0, bytes: 0 };
    entry.count++;
    entry.bytes += nodes[i + sizeAt];
    byKey.set(key, entry);
  }
  return byKey;
}

function snapshotDelta(before, after, streams) {
  const rows = [];
  for (const [key, a] of after) {
    const b = before.get(key) ?? { count: 0, bytes: 0 };
    rows.push({
      what: key,
      countPerStream: (a.count - b.count) / streams,
      bytesPerStream: (a.bytes - b.bytes) / streams,
    });
  }
  rows.sort((x, y) => y.bytesPerStream - x.bytesPerStream);
  const total = rows.reduce((sum, r) => sum + r.bytesPerStream, 0);
  return { totalBytesPerStream: total, top: rows.slice(0, 40) };
}

// ---- the run

async function main() {
  const { KafkaEventBus } = requireFromRoot('@tollgate/events');
  const secrets = serviceSecrets();
  const { encryptionKey } = secrets;
  log(`root ${ROOT}, logs in ${workDir}`);

  const upstream = await startProcess(
    'fake-upstream',
    join(ROOT, 'scripts', 'fake-upstream.mjs'),
    ['--port', '0', '--latency-ms', '0', '--chunks', '4', '--chunk-ms', '0'],
    {},
    /fake-upstream listening on (http:\/\/\S+)/,
  );
  const upstreamUrl = upstream.match[1];
  const setUpstream = async (options) => {
    const res = await fetch(`${upstreamUrl}/__fake/options`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(options),
    });
    if (!res.ok) throw new Error(`fake upstream options: ${res.status} ${await res.text()}`);
  };

  const relayPort = await freePort();
  const relayUrl = `http://127.0.0.1:${relayPort}`;
  const relay = startProcess('relay', join(ROOT, 'apps/relay/dist/main.js'), [], {
    // The V8 flags the launcher starts relay with in distributed mode (its young generation's size).
    nodeArgs: [
      ...requireFromRoot('@tollgate/launcher').serviceNodeFlags('relay'),
      ...args['relay-node-args'].split(',').filter(Boolean),
      '--expose-gc',
      '--require',
      PRELOAD,
    ],
    ipc: true,
    ...commonServiceEnv(secrets),
    ...relayEnv({ port: relayPort, spoolDir: join(workDir, 'spool') }),
    // A connection per stream, as the bench's streams scenario sets it.
    RELAY_UPSTREAM_CONNECTIONS: '12000',
    // e.g. --relay-env GLIBC_TUNABLES=glibc.malloc.mmap_threshold=65536 (what native memory does)
    ...Object.fromEntries(
      args['relay-env']
        .split(',')
        .filter((pair) => pair.includes('='))
        .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
    ),
  });
  const pid = relay.child.pid;
  const bus = new KafkaEventBus({ brokers: process.env.KAFKA_BROKERS.split(','), clientId: `rsm-${runId}` });
  const held = [];
  let finished = false;

  /** Relay's memory after two full GCs, its handles, and (--snapshots) its heap by constructor. */
  async function readMemory(name) {
    // The highest RSS relay has had so far (what the bench's sampler would have seen at most).
    const peakRss = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;
    const { beforeGc, memory, afterTrim, resources } = await ask(relay.child, { type: 'memory' });
    const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;
    const at = performance.now();
    const streams = held.filter((s) => !s.ended && !s.failure).length;
    const mib = (bytes) => (bytes / 2 ** 20).toFixed(1);
    log(
      `${name}: ${streams} open: peak rss so far ${mib(peakRss)} MiB; before GC rss ${mib(beforeGc.rss)} MiB, heapUsed ${mib(beforeGc.heapUsed)} MiB; ` +
        `after GC rss ${mib(memory.rss)} MiB, heapUsed ${mib(memory.heapUsed)} MiB ` +
        `(heapTotal ${mib(memory.heapTotal)}), external ${mib(memory.external)} MiB, ` +
        `arrayBuffers ${mib(memory.arrayBuffers)} MiB; after malloc_trim rss ${afterTrim ? mib(afterTrim.rss) : '?'} MiB; ` +
        `resources ${JSON.stringify(resources)}`,
    );
    let snapshot;
    if (args.snapshots) {
      const file = join(workDir, `relay-${name}.heapsnapshot`);
      await ask(relay.child, { type: 'snapshot', file });
      snapshot = summarizeSnapshot(file);
      rmSync(file, { force: true });
    }
    return { name, streams, at, peakRss, beforeGc, memory, afterTrim, rssProc: rss, resources, snapshot };
  }
  try {
    const customer = await seedRelayCustomer({
      requireFromRoot,
      bus,
      encryptionKey,
      upstreamUrl,
      runId,
      prefix: 'rsm',
      label: 'Stream memory',
    });
    await waitFor('relay', async () => (await fetch(`${relayUrl}/health/ready`)).ok || 'not ready');
    await waitFor('a stream through relay', async () => {
      const probe = openStream(relayUrl, customer);
      const ok = await probe.opened;
      if (probe.failure === 'status 402') await customer.republishBalance();
      return ok || probe.failure;
    });

    log('warm-up: 2,000 short streams, 200 at a time');
    for (let i = 0; i < 10; i++) {
      const { streams } = await openStreams(relayUrl, customer, 200, 2);
      await Promise.all(streams.map((s) => new Promise((r) => (s.ended ? r() : s.request.on('close', r)))));
    }
    // Streams held from here on: a chunk (a token) every CHUNK_MS for longer than the run. The fake
    // writes a whole answer's text per call, so more tokens than this cost the upstream, not relay.
    await setUpstream({ chunks: 900, completionTokens: 900, chunkMs: CHUNK_MS });
    await sleep(2000);

    const levels = [];
    const snapshots = new Map();
    for (const level of LEVELS) {
      if (level > held.length) {
        const opened = await openStreams(
          relayUrl,
          customer,
          level - held.length,
          Number(args['opens-per-ms']),
        );
        held.push(...opened.streams);
        log(
          `${held.length} streams open (${opened.failed} failed ${JSON.stringify(opened.reasons)}) in ${opened.seconds.toFixed(1)} s, ` +
            `first chunk p50 ${opened.firstChunkMs.p50.toFixed(0)} ms, p99 ${opened.firstChunkMs.p99.toFixed(0)} ms`,
        );
      }
      await sleep(2000);
      const reading = await readMemory(`level-${level}`);
      levels.push(reading);
      if (args.snapshots) snapshots.set(reading.streams, reading.snapshot);
    }

    // The same streams some chunks later: what a held stream gains per chunk it relays.
    const growMs = Number(args['grow-ms']);
    let growth;
    if (growMs > 0) {
      const before = levels.at(-1);
      if (args['promoted-profile']) await ask(relay.child, { type: 'sampling-start' });
      // RSS sampled every 100 ms while held, as the bench's sampler does (no GC forced in between).
      let sampledPeakRss = 0;
      const sampler = setInterval(() => {
        const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;
        sampledPeakRss = Math.max(sampledPeakRss, rss);
      }, 100);
      await sleep(growMs);
      clearInterval(sampler);
      log(`while held ${growMs} ms: sampled peak rss ${(sampledPeakRss / 2 ** 20).toFixed(1)} MiB`);
      if (args['promoted-profile']) {
        await ask(relay.child, { type: 'sampling-stop', file: resolve(args['promoted-profile']) });
        log(`what outlived young-generation GCs while held: ${args['promoted-profile']}`);
      }
      const later = await readMemory('grown');
      const n = Math.max(1, later.streams);
      const chunks = (later.at - before.at) / CHUNK_MS;
      growth = {
        streams: later.streams,
        seconds: (later.at - before.at) / 1000,
        chunksPerStream: chunks,
        heapUsedBytesPerStreamPerChunk: (later.memory.heapUsed - before.memory.heapUsed) / n / chunks,
        rssBytesPerStreamPerChunk: (later.rssProc - before.rssProc) / n / chunks,
        sampledPeakRss,
        heap:
          args.snapshots && before.snapshot && later.snapshot
            ? snapshotDelta(before.snapshot, later.snapshot, n * chunks)
            : undefined,
      };
      log(
        `${growth.seconds.toFixed(0)} s later (${chunks.toFixed(0)} chunks a stream): heap +${growth.heapUsedBytesPerStreamPerChunk.toFixed(1)} B ` +
          `and rss +${growth.rssBytesPerStreamPerChunk.toFixed(1)} B per stream per chunk`,
      );
      for (const row of growth.heap?.top.slice(0, 12) ?? [])
        log(
          `  ${row.bytesPerStream.toFixed(1).padStart(7)} B  ${row.countPerStream.toFixed(2).padStart(6)} ×  ${row.what}  (per stream per chunk)`,
        );
    }
    for (const reading of levels) delete reading.snapshot;

    // CPU: holding the last level, then opening EXTRA more while it is held.
    const windowMs = Number(args['hold-window-ms']);
    const holdStart = cpuTicks(pid);
    const holdStartedAt = performance.now();
    await sleep(windowMs);
    const holdMsPerSecond =
      ((cpuTicks(pid) - holdStart) * (1000 / CLK_TCK)) / ((performance.now() - holdStartedAt) / 1000);
    const openStart = cpuTicks(pid);
    const openStartedAt = performance.now();
    const extra = await openStreams(relayUrl, customer, EXTRA, Number(args['opens-per-ms']));
    held.push(...extra.streams);
    const openSeconds = (performance.now() - openStartedAt) / 1000;
    const openCpuMs = (cpuTicks(pid) - openStart) * (1000 / CLK_TCK);
    const cpu = {
      heldStreams: levels.at(-1)?.streams ?? 0,
      holdMsPerSecond,
      holdMsPerStreamSecond: holdMsPerSecond / Math.max(1, levels.at(-1)?.streams ?? 0),
      opened: EXTRA - extra.failed,
      openSeconds,
      openCpuMs,
      openMsPerStream: (openCpuMs - holdMsPerSecond * openSeconds) / Math.max(1, EXTRA - extra.failed),
      firstChunkMs: extra.firstChunkMs,
    };
    log(
      `holding ${cpu.heldStreams}: ${holdMsPerSecond.toFixed(0)} ms CPU/s; opening ${EXTRA} more in ${openSeconds.toFixed(1)} s: ` +
        `${openCpuMs.toFixed(0)} ms CPU, ${cpu.openMsPerStream.toFixed(3)} ms per stream opened beyond holding; ` +
        `first chunk p50 ${extra.firstChunkMs.p50.toFixed(0)} ms, p99 ${extra.firstChunkMs.p99.toFixed(0)} ms`,
    );

    for (const s of held) s.request.destroy();
    held.length = 0;
    await sleep(5000);
    const after = await ask(relay.child, { type: 'memory' });
    log(
      `after closing every stream: heapUsed ${(after.memory.heapUsed / 2 ** 20).toFixed(1)} MiB, rss ${(after.memory.rss / 2 ** 20).toFixed(1)} MiB, resources ${JSON.stringify(after.resources)}`,
    );

    const base = levels[0];
    const perStream = levels.slice(1).map((l) => {
      const n = l.streams - base.streams;
      const per = (a, b) => (a - b) / n;
      return {
        streams: l.streams,
        rssBytesPerStream: per(l.memory.rss, base.memory.rss),
        heapUsedBytesPerStream: per(l.memory.heapUsed, base.memory.heapUsed),
        heapTotalBytesPerStream: per(l.memory.heapTotal, base.memory.heapTotal),
        externalBytesPerStream: per(l.memory.external, base.memory.external),
        arrayBuffersBytesPerStream: per(l.memory.arrayBuffers, base.memory.arrayBuffers),
        beforeGc: {
          rssBytesPerStream: per(l.beforeGc.rss, base.beforeGc.rss),
          heapUsedBytesPerStream: per(l.beforeGc.heapUsed, base.beforeGc.heapUsed),
          externalBytesPerStream: per(l.beforeGc.external, base.beforeGc.external),
        },
        afterTrimRssBytesPerStream:
          l.afterTrim && base.afterTrim ? per(l.afterTrim.rss, base.afterTrim.rss) : undefined,
      };
    });
    for (const p of perStream) {
      log(
        `per stream at ${p.streams}: rss ${(p.rssBytesPerStream / 1024).toFixed(1)} KiB, heap ${(p.heapUsedBytesPerStream / 1024).toFixed(1)} KiB ` +
          `(heapTotal ${(p.heapTotalBytesPerStream / 1024).toFixed(1)} KiB), ` +
          `external ${(p.externalBytesPerStream / 1024).toFixed(1)} KiB (arrayBuffers ${(p.arrayBuffersBytesPerStream / 1024).toFixed(1)} KiB); ` +
          `before GC rss ${(p.beforeGc.rssBytesPerStream / 1024).toFixed(1)} KiB, heap ${(p.beforeGc.heapUsedBytesPerStream / 1024).toFixed(1)} KiB; ` +
          `after malloc_trim rss ${p.afterTrimRssBytesPerStream === undefined ? '?' : (p.afterTrimRssBytesPerStream / 1024).toFixed(1)} KiB`,
      );
    }
    let heap;
    if (args.snapshots && snapshots.size >= 2) {
      const [first, last] = [[...snapshots.keys()][0], [...snapshots.keys()].at(-1)];
      heap = snapshotDelta(snapshots.get(first), snapshots.get(last), last - first);
      log(
        `heap snapshot ${first} → ${last}: ${(heap.totalBytesPerStream / 1024).toFixed(1)} KiB per stream; largest:`,
      );
      for (const row of heap.top.slice(0, 25))
        log(
          `  ${row.bytesPerStream.toFixed(0).padStart(7)} B  ${row.countPerStream.toFixed(2).padStart(6)} ×  ${row.what}`,
        );
    }
    const report = {
      label: args.label,
      root: ROOT,
      runId,
      at: new Date().toISOString(),
      levels,
      perStream,
      cpu,
      afterClose: after,
      heap,
      growth,
    };
    if (args.out) writeFileSync(args.out, JSON.stringify(report, null, 2));
    finished = true;
  } finally {
    for (const s of held) s.request?.destroy();
    await bus.close().catch(() => undefined);
    await stopAll();
    // The processes' logs stay; the spool goes.
    rmSync(join(workDir, 'spool'), { recursive: true, force: true });
    log(`${finished ? 'done' : 'failed'}; logs in ${workDir}`);
  }
}

main().catch(async (error) => {
  console.error(error);
  await stopAll();
  process.exit(1);
});
