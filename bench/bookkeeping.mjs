#!/usr/bin/env node
// Usage bookkeeping at low rates, as `npm start` runs it: one process with the in-process bus (on a
// data dir) and billing, auth and admin started through their start functions on PGlite, fed
// usage.recorded at a fixed rate (c=1 traffic publishes one event per call). Reports the process's
// CPU per event over the run (process.cpuUsage, minus an idle baseline of the same services over the
// same length), the events each consumer group settled (rows counted in the databases at the end)
// and the settlement lag (publish → the group's committed offset passing the event).
//
//   node scripts/build.mjs          # or the changed libraries: npx tsc -p libs/events/tsconfig.json
//   node bench/bookkeeping.mjs [--rates 200,1000] [--seconds 15] [--idle-seconds 15] [--runs 1]
//                              [--profile-dir DIR]   # a .cpuprofile of each run's window, summarised
//                                 (the main thread's: PostgreSQL runs in PGlite's worker thread, whose
//                                 CPU is in the process's cpuUsage but not in the profile)
//                              [--batching on,off,wait1000]
//                                 off: subscriptions' batching dropped before the bus sees it (the
//                                 in-process bus before it honoured it); waitN: every batching
//                                 subscription's maxWaitMs set to N (what a longer window would save)
//                              [--bridge off,on]
//                                 on: the services reach the bus and the key-value store through
//                                 BridgedEventBus/BridgedKvStore over message ports served from this
//                                 thread, as the bookkeeping worker does from its thread: the bridges'
//                                 own CPU (copies, messages), not the wake-up of a second thread
//   node bench/bookkeeping.mjs --publish-only [--rates 200] [--seconds 15] [--runs 3]
//                                 the bus's own share: publishing alone onto a data dir, no service
//
// Each rate runs in a process of its own. Uses the built packages only (not bench/lib).
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchUsageEvent } from './lib/usage-event-fixture.mjs';

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(REPO_ROOT, 'package.json'));
const TOPIC = 'usage.recorded';
const GROUPS = ['billing.usage', 'auth.token-usage', 'admin.channel-usage'];
/** Events sent (and settled) before the clock starts, so that start-up JIT and caches are not measured. */
const WARM_UP_EVENTS = 300;
const LAG_POLL_MS = 5;

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1];
}

const fmt = (n, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : '—');

function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

// ---------------------------------------------------------------------------------------------
// Orchestrator: one child process per rate and run, then a markdown table.

function orchestrate() {
  const rates = option('rates', '200,1000').split(',').map(Number);
  const seconds = option('seconds', '15');
  const idleSeconds = option('idle-seconds', seconds);
  const runs = Number(option('runs', '1'));
  const profileDir = option('profile-dir', '');
  const modes = option('batching', 'on').split(',');
  const bridges = option('bridge', 'off').split(',');
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const results = [];
  for (let run = 1; run <= runs; run++) {
    for (const rate of rates)
      for (const batching of modes)
        for (const bridge of bridges) {
          const args = [
            fileURLToPath(import.meta.url),
            '--child',
            '--rate',
            String(rate),
            '--seconds',
            seconds,
          ];
          args.push('--idle-seconds', idleSeconds, '--batching', batching, '--bridge', bridge);
          const name = `bookkeeping-${rate}-batching-${batching}-bridge-${bridge}-run${run}.cpuprofile`;
          if (profileDir) args.push('--profile', join(profileDir, name));
          const out = execFileSync(process.execPath, args, {
            encoding: 'utf8',
            stdio: ['ignore', 'pipe', 'inherit'],
            env: { ...process.env },
            maxBuffer: 64 * 1024 * 1024,
          });
          const result = JSON.parse(out.trim().split('\n').pop());
          results.push(result);
          console.error(
            `rate ${rate}/s batching ${batching} bridge ${bridge} run ${run}: ${fmt(result.cpuMsPerEvent, 3)} CPU ms/event`,
          );
        }
  }
  console.log(report(results));
  for (const r of results.filter((result) => result.profile)) {
    console.log(
      `\nProfile at ${r.rate}/s, batching ${r.batching} (${fmt(r.profile.busyMs, 0)} ms busy, self time):`,
    );
    console.log(`- by place: ${r.profile.byPlace.join(', ')}`);
    console.log(`- functions: ${r.profile.topFunctions.join('; ')}`);
  }
}

function report(results) {
  const lines = [
    '| rate | batching | bridge | events | CPU ms/event | run CPU ms/s | idle CPU ms/s | commit advances seen, 5 ms polls (billing/auth/admin) | settled rows (usage_logs/applied/channel) | lag p50 / p99 / max ms (billing) | lag p50 / p99 ms (auth, admin) |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of results) {
    const [billing, auth, admin] = GROUPS.map((g) => r.lag[g]);
    lines.push(
      `| ${r.rate}/s | ${r.batching} | ${r.bridge} | ${r.events} | ${fmt(r.cpuMsPerEvent, 3)} | ${fmt(r.runCpuMsPerSecond, 0)} | ` +
        `${fmt(r.idleCpuMsPerSecond, 0)} | ${GROUPS.map((g) => r.commits[g]).join(' / ')} | ` +
        `${r.rows.usageLogs} / ${r.rows.appliedUsageEvents} / ${r.rows.channelUsageEvents} (expected ${r.expectedRows}) | ` +
        `${fmt(billing.p50, 0)} / ${fmt(billing.p99, 0)} / ${fmt(billing.max, 0)} | ` +
        `${fmt(auth.p50, 0)} / ${fmt(auth.p99, 0)}, ${fmt(admin.p50, 0)} / ${fmt(admin.p99, 0)} |`,
    );
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------
// Child: the embedded bookkeeping in this process.

async function measure({ rate, seconds, idleSeconds, profile, batching, bridge }) {
  const { InProcessEventBus, partitionForKey, BridgedEventBus, serveEventBus } = require('@tollgate/events');
  const { MemoryKvStore, BridgedKvStore, serveKvStore } = require('@tollgate/kv');
  const { MessageChannel } = require('node:worker_threads');
  const { startPgliteServers } = require('@tollgate/persistence');
  const { busLoggerFor } = require('@tollgate/runtime');
  const { startAuth } = require('@tollgate/auth');
  const { startBilling } = require('@tollgate/billing');
  const { startAdmin } = require('@tollgate/admin');
  const { usageRecordedV1, TOPICS } = require('@tollgate/contracts');
  const pg = require('pg');

  const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-bookkeeping-'));
  const env = {
    TOLLGATE_INTERNAL_TOKEN_SECRET: randomBytes(32).toString('hex'),
    TOLLGATE_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    TOLLGATE_ROOT_USERNAME: 'root',
    TOLLGATE_ROOT_PASSWORD: randomBytes(12).toString('hex'),
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.LOG_LEVEL || 'info',
    MAIL_OUTBOX_DIR: join(dataDir, 'outbox'),
    // No network here: the exchange rate falls back at once instead of waiting on the bank.
    CBR_DAILY_URL: 'http://127.0.0.1:9/',
    // Services call each other only on paths this bench does not take.
    AUTH_URL: 'http://127.0.0.1:9',
    BILLING_URL: 'http://127.0.0.1:9',
    RELAY_URL: 'http://127.0.0.1:9',
    ADMIN_URL: 'http://127.0.0.1:9',
  };
  const bus = new InProcessEventBus({
    dataDir: join(dataDir, 'bus'),
    logger: busLoggerFor('embedded', env.LOG_LEVEL),
  });
  const kv = new MemoryKvStore();
  // Without a batching policy the in-process bus takes the path it took before it honoured one.
  const withBatching = (options) => {
    if (batching === 'off') return { ...options, batching: undefined };
    const wait = /^wait(\d+)$/.exec(batching);
    if (!wait || !options.batching) return options;
    return { ...options, batching: { ...options.batching, maxWaitMs: Number(wait[1]) } };
  };
  const servicesBus =
    batching === 'on'
      ? bus
      : new Proxy(bus, {
          get: (target, property) =>
            property === 'subscribe'
              ? (options) => target.subscribe(withBatching(options))
              : Reflect.get(target, property),
        });
  const bridged = [];
  const bridgedTo = (served, serve, Bridged) => {
    const { port1, port2 } = new MessageChannel();
    serve(served, port2);
    const client = new Bridged(port1);
    bridged.push(client);
    return client;
  };
  const runtime =
    bridge === 'on'
      ? {
          bus: bridgedTo(servicesBus, serveEventBus, BridgedEventBus),
          kv: bridgedTo(kv, serveKvStore, BridgedKvStore),
          embedded: true,
        }
      : { bus: servicesBus, kv, embedded: true };
  // As npm start runs them: the three PGlite instances in one worker thread, off this event loop.
  const names = ['auth', 'billing', 'admin'];
  const servers = await startPgliteServers(names.map((name) => join(dataDir, 'pg', name)));
  const databases = Object.fromEntries(names.map((name, index) => [name, servers[index]]));
  const starters = { auth: startAuth, billing: startBilling, admin: startAdmin };
  const start = (name) => starters[name]({ ...env, PORT: '0', DATABASE_URL: databases[name].url }, runtime);

  // A PGlite server takes one connection at a time: the services run their migrations, stop, the
  // key and the channel the events name are written, and the services start again.
  const services = [];
  for (const name of ['auth', 'admin']) await (await start(name)).close();
  const sql = async (name, text, values = []) => {
    const client = new pg.Client({ connectionString: databases[name].url });
    await client.connect();
    try {
      return (await client.query(text, values)).rows;
    } finally {
      await client.end();
    }
  };
  const [{ id: userId }] = await sql('auth', `select id from users where username = 'root'`);
  const [{ id: tokenId }] = await sql(
    'auth',
    `insert into tokens (user_id, name, key_hash, key_encrypted, key_masked, remain_quota, unlimited_quota, created_at, updated_at)
     values ($1, 'bench', $2, 'sealed', 'sk-be**ch', 0, true, now(), now()) returning id`,
    [userId, randomBytes(32).toString('hex')],
  );
  const [{ id: channelId }] = await sql(
    'admin',
    `insert into channels (type, name, key_encrypted, key_masked, created_at, updated_at)
     values (1, 'bench', 'sealed', 'sk-be**ch', now(), now()) returning id`,
  );
  for (const name of ['auth', 'billing', 'admin']) services.push(await start(name));

  // Checked against the contract once; relay builds its events without parsing them, so does this.
  // The Kafka micros' event, for this run's one user, token and channel, and a dearer call.
  const template = usageRecordedV1.parse({
    ...benchUsageEvent(0).value,
    user_id: userId,
    token_id: tokenId,
    channel_id: channelId,
    upstream_model: 'gpt-4o-mini',
    completion_tokens: 20,
    quota: 150,
    response_id: 'chatcmpl-bench',
  });
  const event = () => ({
    ...template,
    event_id: randomUUID(),
    request_id: randomUUID(),
    price: { ...template.price },
    created_at: Math.floor(Date.now() / 1000),
  });
  // Relay keys usage.recorded by user: one user's calls are one partition, in order.
  const key = String(userId);
  const partitions = (await bus.consumerLag(GROUPS[0], TOPICS.usageRecorded.name)).length;
  const partition = partitionForKey(key, partitions);

  // What each group has committed on the partition, read through the public consumer-lag API.
  const lagTrack = { published: [], committedAt: Object.fromEntries(GROUPS.map((g) => [g, []])) };
  const committed = Object.fromEntries(GROUPS.map((g) => [g, 0]));
  const commitCalls = Object.fromEntries(GROUPS.map((g) => [g, 0]));
  let endOffset = 0;
  const pollLag = async () => {
    const now = performance.now();
    for (const group of GROUPS) {
      const lag = (await bus.consumerLag(group, TOPIC))[partition];
      const offset = Number(lag.committedOffset ?? 0);
      if (offset > committed[group]) {
        commitCalls[group]++;
        for (let o = committed[group]; o < offset; o++) lagTrack.committedAt[group][o] = now;
        committed[group] = offset;
      }
    }
  };
  let polling = true;
  const poller = (async () => {
    while (polling) {
      await pollLag();
      await new Promise((resolve) => setTimeout(resolve, LAG_POLL_MS));
    }
  })();

  /** Publishes `count` events at `perSecond`, one publish per event as relay does per call. */
  const pace = async (perSecond, durationMs, send) => {
    const started = performance.now();
    let sent = 0;
    const inFlight = [];
    while (performance.now() - started < durationMs) {
      const due = Math.floor(((performance.now() - started) / 1000) * perSecond);
      while (sent < due) {
        inFlight.push(send());
        sent++;
      }
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await Promise.all(inFlight);
    return sent;
  };
  const publishOne = () => {
    const offset = endOffset++;
    lagTrack.published[offset] = performance.now();
    return bus.publish([{ topic: TOPIC, key, value: event() }]);
  };
  const settled = async (timeoutMs) => {
    const deadline = Date.now() + timeoutMs;
    while (GROUPS.some((g) => committed[g] < endOffset)) {
      if (Date.now() > deadline) throw new Error(`not settled: ${JSON.stringify(committed)} of ${endOffset}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  // Warm-up, then the idle baseline (the pacer running, sending nothing), then the run.
  await pace(Math.min(rate, 200), (WARM_UP_EVENTS / Math.min(rate, 200)) * 1000, publishOne);
  await settled(60_000);
  const warmUpEvents = endOffset;
  const idleCpu = process.cpuUsage();
  const idleStarted = performance.now();
  await pace(0, idleSeconds * 1000, publishOne);
  const idleCpuMicros = sum(process.cpuUsage(idleCpu));
  const idleMs = performance.now() - idleStarted;

  const session = profile ? new Session() : undefined;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.start');
  }
  for (const group of GROUPS) commitCalls[group] = 0;
  const firstRunOffset = endOffset;
  const runCpu = process.cpuUsage();
  const runStarted = performance.now();
  const events = await pace(rate, seconds * 1000, publishOne);
  await settled(120_000);
  const runCpuMicros = sum(process.cpuUsage(runCpu));
  const runMs = performance.now() - runStarted;
  if (session) {
    const { profile: cpuProfile } = await session.post('Profiler.stop');
    writeFileSync(profile, JSON.stringify(cpuProfile));
    session.disconnect();
  }
  polling = false;
  await poller;

  for (const service of services.reverse()) await service.close();
  const count = async (name, table) =>
    Number((await sql(name, `select count(*)::int as n from ${table}`))[0].n);
  const rows = {
    usageLogs: await count('billing', 'usage_logs'),
    appliedUsageEvents: await count('auth', 'applied_usage_events'),
    channelUsageEvents: await count('admin', 'channel_usage_events'),
  };
  const [{ used_quota: channelUsed }] = await sql('admin', 'select used_quota from channels where id = $1', [
    channelId,
  ]);
  for (const client of bridged) await client.close();
  await bus.close();
  await kv.close();
  for (const db of Object.values(databases)) await db.close();
  rmSync(dataDir, { recursive: true, force: true });

  const lag = {};
  for (const group of GROUPS) {
    const lags = [];
    for (let o = firstRunOffset; o < endOffset; o++)
      lags.push(lagTrack.committedAt[group][o] - lagTrack.published[o]);
    lags.sort((a, b) => a - b);
    lag[group] = { p50: percentile(lags, 50), p99: percentile(lags, 99), max: lags[lags.length - 1] };
  }
  const idleCpuMsPerSecond = idleCpuMicros / idleMs;
  const runCpuMsPerSecond = runCpuMicros / runMs;
  const result = {
    rate,
    batching,
    bridge,
    events,
    seconds: runMs / 1000,
    cpuMsPerEvent: (runCpuMicros / 1000 - idleCpuMsPerSecond * (runMs / 1000)) / events,
    runCpuMsPerSecond,
    idleCpuMsPerSecond,
    commits: commitCalls,
    lag,
    rows,
    expectedRows: warmUpEvents + events,
    channelUsedQuota: Number(channelUsed),
    expectedChannelUsedQuota: 150 * (warmUpEvents + events),
  };
  if (profile) result.profile = summariseProfile(profile);
  return result;
}

const sum = ({ user, system }) => user + system;

/** Self time of a .cpuprofile grouped by where the code comes from. */
function summariseProfile(path) {
  const { nodes, samples, timeDeltas } = JSON.parse(readFileSync(path, 'utf8'));
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const self = new Map();
  for (let i = 0; i < samples.length; i++) {
    const node = byId.get(samples[i]);
    self.set(node, (self.get(node) ?? 0) + (timeDeltas[i] ?? 0));
  }
  const buckets = new Map();
  const functions = new Map();
  let total = 0;
  for (const [node, micros] of self) {
    const { url, functionName } = node.callFrame;
    if (functionName === '(idle)') continue;
    total += micros;
    const bucket = bucketOf(url, functionName);
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + micros);
    const fn = `${functionName || '(anonymous)'} ${url.replace(/^.*node_modules\//, '').replace(REPO_ROOT, '')}`;
    functions.set(fn, (functions.get(fn) ?? 0) + micros);
  }
  const top = (map, n) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, micros]) => `${name}: ${fmt((100 * micros) / total, 1)}%`);
  return { busyMs: total / 1000, byPlace: top(buckets, 14), topFunctions: top(functions, 25) };
}

function bucketOf(url, functionName) {
  if (!url) return functionName.startsWith('(') ? functionName : '(native/builtin)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  const own = /\/(apps|libs)\/([^/]+)\/(?:dist|src)\/([^/]+)/.exec(url);
  if (own) return `${own[1]}/${own[2]}/${own[3]}`;
  if (url.startsWith('node:')) return url.split('/')[0] + '/' + (url.split(':')[1] ?? '').split('/')[0];
  return url;
}

/**
 * `--publish-only`: the bus's own share, no service started: `count` events published one per call
 * at `rate` onto an in-process bus on a data dir, CPU per event minus the pacer alone.
 */
async function measurePublishing({ rate, count }) {
  const { InProcessEventBus, silentEventBusLogger } = require('@tollgate/events');
  const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-publish-'));
  const bus = new InProcessEventBus({ dataDir, logger: silentEventBusLogger });
  await bus.ensureTopics([{ name: TOPIC, partitions: 3 }]);
  const value = { v: 1, user_id: 1, model: 'gpt-4o-mini', quota: 150, padding: 'x'.repeat(500) };
  const pace = async (events) => {
    const started = performance.now();
    const publishes = [];
    for (let sent = 0; sent < events || performance.now() - started < (count / rate) * 1000;) {
      const due = Math.min(events, Math.floor(((performance.now() - started) / 1000) * rate));
      for (; sent < due; sent++) {
        publishes.push(
          bus.publish([{ topic: TOPIC, key: '1', value: { ...value, event_id: randomUUID() } }]),
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await Promise.all(publishes);
  };
  await pace(Math.min(count, 300));
  const idle = process.cpuUsage();
  await pace(0);
  const idleMicros = sum(process.cpuUsage(idle));
  const run = process.cpuUsage();
  await pace(count);
  const runMicros = sum(process.cpuUsage(run));
  await bus.close();
  rmSync(dataDir, { recursive: true, force: true });
  return { rate, events: count, publishCpuMsPerEvent: (runMicros - idleMicros) / 1000 / count };
}

if (process.argv.includes('--publish-only')) {
  const rate = Number(option('rates', '200').split(',')[0]);
  const runs = Number(option('runs', '3'));
  for (let run = 1; run <= runs; run++) {
    const out = execFileSync(
      process.execPath,
      [
        fileURLToPath(import.meta.url),
        '--publish-child',
        '--rate',
        String(rate),
        '--seconds',
        option('seconds', '15'),
      ],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
    );
    console.log(out.trim());
  }
} else if (process.argv.includes('--publish-child')) {
  const rate = Number(option('rate', '200'));
  console.log(
    JSON.stringify(await measurePublishing({ rate, count: rate * Number(option('seconds', '15')) })),
  );
} else if (process.argv.includes('--child')) {
  const result = await measure({
    rate: Number(option('rate', '200')),
    seconds: Number(option('seconds', '15')),
    idleSeconds: Number(option('idle-seconds', option('seconds', '15'))),
    profile: option('profile', ''),
    batching: option('batching', 'on'),
    bridge: option('bridge', 'off'),
  });
  console.log(JSON.stringify(result));
  process.exit(0);
} else {
  orchestrate();
}
