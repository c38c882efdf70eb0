#!/usr/bin/env node
// CPU per call of every process of the whole distributed platform at low rates (issue 17): every
// service in its own process (one worker each, tools/launcher's startDistributed) on a PostgreSQL,
// Redis and Kafka of the run's own, the fake upstream answering at once, a fixed number of
// non-streaming chat calls one at a time, and for each window: each process's utime + stime from /proc
// (the services, PostgreSQL with its backends, Redis, the Kafka broker) and its read + write system
// calls (/proc/<pid>/io: a count, which a loaded machine hardly moves, unlike CPU time), and how many
// records each topic gained (the broker's high-water marks), per 1,000 calls. Bookkeeping goes on for
// a moment after the last call (billing's batch window, the balances it publishes): each window ends
// `--tail-ms` after it, and each process's idle cost (ms/s and syscalls/s with no calls) is printed
// so that it can be told apart.
//
//   node scripts/build.mjs
//   export TOLLGATE_INFRA_DIR=/tmp/full-cpu-infra       # infrastructure of the run's own (see below)
//   bash scripts/infra.sh up && eval "$(bash scripts/infra.sh env)"
//   node bench/full-platform-cpu.mjs                    # 3,000 calls at c=1, 3 rounds
//   node bench/full-platform-cpu.mjs --profile          # and V8 profiles of the services at c=1
//   node bench/full-platform-cpu.mjs --profile --profile-calls 0   # profiles of 10 s with no calls
//   node bench/full-platform-cpu.mjs --root /other/checkout   # a built copy (before/after)
//   node bench/full-platform-cpu.mjs --rounds 8 --batch gateway,relay   # those services on SCHED_BATCH
//     (chrt, every thread) in rounds 2, 3, 6, 7, … (plain batch batch plain), each set's medians printed (h127)
//   node bench/full-platform-cpu.mjs --gc --service-v8-flags gateway=--no-allocation-site-pretenuring
//   node bench/full-platform-cpu.mjs --concurrency 64 --client both --rounds 8 --tail-ms 0
//     (undici's pool and wrk, bench/wrk/chat.lua for --wrk-seconds as `npm run bench` drives a step, alternating)
//
// The customer is made through the platform's API as `npm run bench` makes it (--seed api): auth's and
// admin's usage consumers then update the key and the channel, as in production. --seed topics publishes
// it straight onto the compacted topics (the only way before h128), where auth and admin count nothing.
//
// --service-v8-flags SERVICE=FLAGS (repeatable) gives V8 flags to one service only, through
// v8.setFlagsFromString in a preload (lib/service-v8.preload.cjs) before the service's code loads: also
// the flags NODE_OPTIONS refuses, such as --no-allocation-site-pretenuring. --gc reads each service's
// garbage collection over every window (v8.GCProfiler in the same preload, started and stopped through
// files the preload watches): scavenges per 1,000 calls, their median pause, the young generation each
// left, what each promoted, mark-compacts, GC ms per call — so that a run in V8's "bad" GC state (h121)
// is recognisable per service. Both add the preload to every service's NODE_OPTIONS.
//
// With --root the services, the launcher and kafkajs come from that checkout, the seeding and /proc
// helpers from this one; for a before/after pair, copying this script into each built copy and
// running it there keeps everything of one state together.
//
// A broker of its own: on a shared one, other platforms' relays read this run's compacted topics and
// their billing settles nothing of it but still publishes, which moves the numbers being measured.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import { openCpuWindow } from './lib/cpu.mjs';
import { infrastructureFromEnv } from './lib/infra.mjs';
import { namedLog } from './lib/log.mjs';
import { summarizeCpuProfile } from './lib/cpu-profile.mjs';
import { startFakeUpstream } from './lib/platform.mjs';
import { infrastructurePids, processTable, treeOf } from './lib/proc.mjs';
import { seedCustomer, seedCustomerThroughApi, waitUntilServable } from './lib/seed.mjs';
import { median } from './lib/stats.mjs';
import { sendChatCalls } from './lib/chat-calls.mjs';
import { runChatLoad } from './lib/wrk.mjs';
import { closeGcWindow, formatGc, openGcWindow } from './lib/service-gc.mjs';

/** Every thread of each process in `pids` (and its children) to SCHED_BATCH or back to SCHED_OTHER (chrt). */
function schedulingPolicy(pids, policy) {
  const table = processTable();
  for (const root of pids)
    for (const pid of treeOf(table, root))
      execFileSync('chrt', ['-a', policy === 'batch' ? '-b' : '-o', '-p', '0', String(pid)]);
}

const PROFILER_PRELOAD = fileURLToPath(new URL('./lib/cpu-profiler.preload.cjs', import.meta.url));
const SERVICE_V8_PRELOAD = fileURLToPath(new URL('./lib/service-v8.preload.cjs', import.meta.url));
const SERVICES = ['gateway', 'relay', 'auth', 'billing', 'admin', 'chat'];

const { values: args } = parseArgs({
  options: {
    root: { type: 'string', default: join(dirname(fileURLToPath(import.meta.url)), '..') },
    calls: { type: 'string', default: '3000' },
    concurrency: { type: 'string', default: '1' },
    rounds: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '1000' },
    'tail-ms': { type: 'string', default: '1000' },
    'idle-ms': { type: 'string', default: '5000' },
    profile: { type: 'boolean', default: false },
    'profile-services': { type: 'string', default: 'relay,billing,auth,gateway' },
    'profile-calls': { type: 'string', default: '3000' },
    batch: { type: 'string' },
    'service-v8-flags': { type: 'string', multiple: true, default: [] },
    gc: { type: 'boolean', default: false },
    out: { type: 'string' },
    label: { type: 'string', default: '' },
    seed: { type: 'string', default: 'api' },
    client: { type: 'string', default: 'undici' },
    'wrk-seconds': { type: 'string', default: '8' },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(
    'node bench/full-platform-cpu.mjs [--root DIR] [--calls 3000] [--concurrency 1] [--rounds 3] [--warmup 1000] [--tail-ms 1000] [--idle-ms 5000] [--profile] [--profile-services relay,billing] [--batch gateway,relay] [--service-v8-flags SERVICE=FLAGS ...] [--gc] [--seed api|topics] [--client undici|wrk|both] [--wrk-seconds 8] [--out FILE.json] [--label TEXT]',
  );
  process.exit(0);
}

/** `gateway=--a --b` (repeatable) → { gateway: '--a --b' }; a service named twice gets both. */
function serviceV8Flags(specs) {
  const flags = {};
  for (const spec of specs) {
    const at = spec.indexOf('=');
    const service = spec.slice(0, at);
    if (at < 1 || !SERVICES.includes(service)) {
      console.error(
        `--service-v8-flags ${spec}: expected SERVICE=FLAGS, SERVICE one of ${SERVICES.join(', ')}`,
      );
      process.exit(2);
    }
    flags[service] = [flags[service], spec.slice(at + 1)].filter(Boolean).join(' ');
  }
  return flags;
}
const V8_FLAGS = serviceV8Flags(args['service-v8-flags']);
if (!['undici', 'wrk', 'both'].includes(args.client)) {
  console.error(`--client ${args.client}: expected undici, wrk or both`);
  process.exit(2);
}
if (!['api', 'topics'].includes(args.seed)) {
  console.error(`--seed ${args.seed}: expected api or topics`);
  process.exit(2);
}

const ROOT = resolve(args.root);
const requireFromRoot = createRequire(join(ROOT, 'package.json'));
const infra = infrastructureFromEnv();
const runId = `f${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
// Short: relay's spool directory holds lock sockets (at most 80 bytes of path).
const workDir = join(tmpdir(), `fpc-${runId}`);
mkdirSync(workDir, { recursive: true });
const log = namedLog('full-platform-cpu');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * read + write system calls (socket reads and writes included) of each group's process tree, from
 * /proc/<pid>/io: a count, so unlike CPU time it hardly moves with the machine's load, and each
 * produce request, fetch or database round trip is a few of them.
 */
function syscalls(groups) {
  const table = processTable();
  const counts = {};
  for (const [name, root] of Object.entries({ ...groups.own, ...groups.infra })) {
    counts[name] = 0;
    for (const pid of treeOf(table, root)) {
      try {
        const io = readFileSync(`/proc/${pid}/io`, 'utf8');
        counts[name] += Number(/syscr: (\d+)/.exec(io)[1]) + Number(/syscw: (\d+)/.exec(io)[1]);
      } catch {
        // ended meanwhile, or not ours to read
      }
    }
  }
  return counts;
}

/** Records on every topic so far: the sum of its partitions' high-water marks. */
async function topicOffsets(admin) {
  const topics = (await admin.listTopics()).filter((t) => !t.startsWith('__'));
  const offsets = {};
  for (const topic of topics) {
    const partitions = await admin.fetchTopicOffsets(topic);
    offsets[topic] = partitions.reduce((sum, p) => sum + Number(p.high), 0);
  }
  return offsets;
}

/** How long each service takes from SIGTERM to its exit, all stopped at once as platform.stop() does. */
async function timedStop(platform) {
  const entries = await Promise.all(
    SERVICES.map(async (name) => {
      const started = Date.now();
      await platform.services[name].kill('SIGTERM');
      return [name, Date.now() - started];
    }),
  );
  return Object.fromEntries(entries);
}

function runCalls(url, customer, calls, concurrency) {
  return sendChatCalls({ Pool: requireFromRoot('undici').Pool, url, customer, calls, concurrency });
}

/**
 * One round's load: `calls` calls from this process's undici pool, or (`client` wrk) the bench's
 * generator, bench/wrk/chat.lua over `concurrency` new connections for `seconds`, as one throughput
 * step of `npm run bench` drives it. `calls` is what was served either way.
 */
async function roundLoad({ client, url, customer, calls, concurrency, seconds }) {
  if (client === 'undici') return runCalls(url, customer, calls, concurrency);
  const target = {
    url: `${url}/v1/chat/completions`,
    headers: { authorization: `Bearer ${customer.apiKey}` },
    model: customer.model,
  };
  const load = await runChatLoad(target, { vus: concurrency, durationSeconds: seconds });
  const failed = load.requests - load.served;
  return {
    calls: load.served,
    failed,
    firstFailure: failed > 0 ? `${(load.errorRate * 100).toFixed(2)} % errors (wrk)` : '',
    seconds: load.served / load.rps,
  };
}

async function main() {
  const { startDistributed } = requireFromRoot('@tollgate/launcher');
  const { KafkaEventBus } = requireFromRoot('@tollgate/events');
  const { Kafka, logLevel } = requireFromRoot('kafkajs');
  const profileDir = join(workDir, 'profiles');
  const gcDir = join(workDir, 'gc');
  const extraEnv = {};
  const preloads = [];
  if (args.profile) {
    mkdirSync(profileDir);
    preloads.push(PROFILER_PRELOAD);
    Object.assign(extraEnv, {
      BENCH_CPU_PROFILE_DIR: profileDir,
      BENCH_CPU_PROFILE_SERVICES: args['profile-services'],
    });
  }
  if (args.gc || Object.keys(V8_FLAGS).length > 0) {
    preloads.push(SERVICE_V8_PRELOAD);
    extraEnv.BENCH_SERVICE_V8_FLAGS = JSON.stringify(V8_FLAGS);
    if (args.gc) {
      mkdirSync(gcDir);
      extraEnv.BENCH_GC_DIR = gcDir;
    }
  }
  if (preloads.length > 0) extraEnv.NODE_OPTIONS = preloads.map((file) => `--require ${file}`).join(' ');
  log(`root ${ROOT}, logs in ${workDir}, V8 flags per service ${JSON.stringify(V8_FLAGS)}`);
  const upstream = await startFakeUpstream({ logDir: workDir });
  await upstream.setLatency(0);
  const internalSecret = randomBytes(32).toString('hex');
  const encryptionKey = randomBytes(32).toString('base64');
  const root = {
    username: `froot_${randomBytes(4).toString('hex')}`,
    password: randomBytes(12).toString('hex'),
  };
  const platform = await startDistributed({
    repoRoot: ROOT,
    env: {
      TOLLGATE_INTERNAL_TOKEN_SECRET: internalSecret,
      TOLLGATE_ENCRYPTION_KEY: encryptionKey,
      TOLLGATE_ROOT_USERNAME: root.username,
      TOLLGATE_ROOT_PASSWORD: root.password,
      // --seed api: admin's channel on the fake upstream (loopback, which channels may not name by default).
      CHANNEL_BASE_URL_ALLOWED_RANGES: 'loopback',
      // No exchange-rate fetch from the internet during a run.
      CBR_DAILY_URL: 'http://127.0.0.1:9/XML_daily.asp',
      LOG_LEVEL: 'warn',
      OTEL_EXPORTER_OTLP_ENDPOINT: '',
      GATEWAY_RATE_LIMIT_PER_MINUTE: '0',
      TOLLGATE_WORKERS: '1',
      RELAY_USAGE_SPOOL_DIR: join(workDir, 'spool'),
      TOLLGATE_READY_TIMEOUT_MS: '180000',
      ...extraEnv,
    },
    postgresAdminUrl: infra.DATABASE_URL,
    redisUrl: infra.REDIS_URL,
    kafkaBrokers: infra.KAFKA_BROKERS,
    databasePrefix: `fpc_${runId}`,
    logDir: join(workDir, 'services'),
    readyTimeoutMs: 180_000,
  });
  const bus = new KafkaEventBus({ brokers: infra.KAFKA_BROKERS.split(','), clientId: `fpc-${runId}` });
  const admin = new Kafka({
    brokers: infra.KAFKA_BROKERS.split(','),
    clientId: `fpc-admin-${runId}`,
    logLevel: logLevel.NOTHING,
  }).admin();
  await admin.connect();
  try {
    const customer =
      args.seed === 'api'
        ? await seedCustomerThroughApi({ url: platform.url, root, upstreamUrl: upstream.url, runId })
        : await seedCustomer({
            bus,
            encryptionKey,
            internalSecret,
            billingUrl: platform.services.billing.url,
            upstreamUrl: upstream.url,
            runId,
          });
    await waitUntilServable(platform.url, customer);
    const own = Object.fromEntries(SERVICES.map((name) => [name, platform.services[name].pid]));
    const groups = { own, infra: infrastructurePids(infra, log) };
    const calls = Number(args.calls);
    const concurrency = Number(args.concurrency);
    const batchServices = args.batch ? args.batch.split(',') : [];

    log(`warm-up: ${args.warmup} calls at c=${concurrency}`);
    await runCalls(platform.url, customer, Number(args.warmup), concurrency);
    await sleep(Number(args['tail-ms']));
    const idleSyscalls = syscalls(groups);
    const idleWindow = openCpuWindow(groups);
    await sleep(Number(args['idle-ms']));
    const idle = idleWindow.close(1);
    const idleSeconds = idle.wallMs / 1000;
    const idleMsPerSecond = Object.fromEntries(
      Object.entries(idle.cpuMs).map(([name, ms]) => [name, ms / idleSeconds]),
    );
    const idleSyscallsAfter = syscalls(groups);
    const idleSyscallsPerSecond = Object.fromEntries(
      Object.keys(idleSyscallsAfter).map((n) => [n, (idleSyscallsAfter[n] - idleSyscalls[n]) / idleSeconds]),
    );
    log(
      `idle ms/s: ${JSON.stringify(idleMsPerSecond, (k, v) => (typeof v === 'number' ? +v.toFixed(1) : v))}`,
    );

    const rounds = [];
    for (let round = 0; round < Number(args.rounds); round++) {
      // --batch: the listed services' threads on SCHED_BATCH in rounds 2, 3, 6, 7, … (plain batch batch
      // plain, …: each pair's order alternates, so a drift of the host favours neither).
      const batch = batchServices.length > 0 && (round % 4 === 1 || round % 4 === 2);
      // --client both: wrk in the same rounds 2, 3, 6, 7, …, undici's pool in the others.
      const client =
        args.client === 'both' ? (round % 4 === 1 || round % 4 === 2 ? 'wrk' : 'undici') : args.client;
      if (batch)
        schedulingPolicy(
          batchServices.map((name) => own[name]),
          'batch',
        );
      const offsetsBefore = await topicOffsets(admin);
      const syscallsBefore = syscalls(groups);
      if (args.gc) openGcWindow(gcDir, round);
      const window = openCpuWindow(groups);
      const load = await roundLoad({
        client,
        url: platform.url,
        customer,
        calls,
        concurrency,
        seconds: Number(args['wrk-seconds']),
      });
      await sleep(Number(args['tail-ms']));
      const cpu = window.close(load.calls);
      const gc = args.gc ? await closeGcWindow(gcDir, round, SERVICES, load.calls) : undefined;
      const syscallsAfter = syscalls(groups);
      const syscallsPerCall = Object.fromEntries(
        Object.keys(syscallsAfter).map((n) => [n, (syscallsAfter[n] - syscallsBefore[n]) / load.calls]),
      );
      if (batch)
        schedulingPolicy(
          batchServices.map((name) => own[name]),
          'other',
        );
      const offsetsAfter = await topicOffsets(admin);
      const recordsPer1000 = Object.fromEntries(
        Object.keys(offsetsAfter)
          .map((topic) => [topic, ((offsetsAfter[topic] - (offsetsBefore[topic] ?? 0)) * 1000) / load.calls])
          .filter(([, n]) => n > 0),
      );
      rounds.push({
        batch,
        client,
        ...load,
        rps: load.calls / load.seconds,
        perCall: cpu.perCall,
        syscallsPerCall,
        recordsPer1000,
        gc: gc?.byService,
      });
      if (gc)
        log(
          `round ${round + 1} GC: ${formatGc(gc.byService)}${gc.missing.length ? `; no reading from ${gc.missing.join(', ')}` : ''}`,
        );
      log(
        `round ${round + 1}${batch ? ` (SCHED_BATCH: ${batchServices.join(',')})` : ''} (${client}): ${load.calls} calls (${load.failed} failed${load.firstFailure ? `: ${load.firstFailure}` : ''}) in ${load.seconds.toFixed(1)} s; ` +
          `CPU ms/call ${Object.entries(cpu.perCall)
            .map(([name, ms]) => `${name} ${ms.toFixed(3)}`)
            .join(', ')}; records/1000 calls ${JSON.stringify(recordsPer1000)}`,
      );
    }
    const failed = rounds.reduce((sum, r) => sum + r.failed, 0);
    if (failed > 0) {
      process.exitCode = 1;
      log(`${failed} calls failed: these numbers do not measure served calls`);
    }
    const names = Object.keys(rounds[0].perCall);
    const topics = [...new Set(rounds.flatMap((r) => Object.keys(r.recordsPer1000)))];
    const summary = {
      rps: median(rounds.map((r) => r.rps)),
      perCall: Object.fromEntries(names.map((n) => [n, median(rounds.map((r) => r.perCall[n]))])),
      syscallsPerCall: Object.fromEntries(
        names.map((n) => [n, median(rounds.map((r) => r.syscallsPerCall[n]))]),
      ),
      recordsPer1000: Object.fromEntries(
        topics.map((t) => [t, median(rounds.map((r) => r.recordsPer1000[t] ?? 0))]),
      ),
      gc: args.gc ? medianGc(rounds.map((r) => r.gc)) : undefined,
    };

    let profiles;
    if (args.profile) {
      writeFileSync(join(profileDir, 'start'), '');
      await sleep(300);
      const profileCalls = Number(args['profile-calls']);
      log(`profiling: ${profileCalls ? `${profileCalls} calls at c=${concurrency}` : 'idle, 10 s'}`);
      if (profileCalls > 0) await runCalls(platform.url, customer, profileCalls, concurrency);
      else await sleep(10_000);
      await sleep(Number(args['tail-ms']));
    }
    await bus.close().catch(() => undefined);
    await admin.disconnect().catch(() => undefined);
    const stopMs = await timedStop(platform);
    log(`stop ms (SIGTERM to exit): ${JSON.stringify(stopMs)}`);
    if (args.profile) {
      profiles = {};
      const files = readdirSync(profileDir);
      for (const service of args['profile-services'].split(',')) {
        const name = files.find((f) => f === `${service}.${own[service]}.cpuprofile`);
        if (!name) continue;
        const file = join(profileDir, name);
        profiles[service] = { file, ...summarizeCpuProfile(file, { top: 30, inclusive: 80 }) };
      }
    }

    const report = {
      label: args.label,
      root: ROOT,
      runId,
      at: new Date().toISOString(),
      calls,
      concurrency,
      v8Flags: V8_FLAGS,
      seed: args.seed,
      idleMsPerSecond,
      idleSyscallsPerSecond,
      stopMs,
      summary,
      rounds,
      profiles,
    };
    if (args.out) writeFileSync(args.out, JSON.stringify(report, null, 2));
    const sumOf = (list) => list.reduce((s, n) => s + (summary.perCall[n] ?? 0), 0);
    console.log(
      `full platform CPU per call at c=${concurrency} (${args.label || ROOT}), median of ${args.rounds} rounds of ${args.client === 'undici' ? calls : args.client === 'wrk' ? `wrk for ${args['wrk-seconds']} s` : `${calls} calls or wrk for ${args['wrk-seconds']} s`}:`,
    );
    for (const [name, ms] of Object.entries(summary.perCall))
      console.log(
        `  ${name.padEnd(9)} ${ms.toFixed(3)} ms/call  ${summary.syscallsPerCall[name].toFixed(1).padStart(6)} syscalls/call   idle ${idleMsPerSecond[name].toFixed(1)} ms/s ${idleSyscallsPerSecond[name].toFixed(0)} syscalls/s`,
      );
    console.log(
      `  stop (SIGTERM to exit): ${Object.entries(stopMs)
        .map(([n, ms]) => `${n} ${ms} ms`)
        .join(', ')}`,
    );
    console.log(
      `  own processes ${sumOf(SERVICES).toFixed(3)} ms/call, with infrastructure ${sumOf(names).toFixed(3)}; ${summary.rps.toFixed(0)} req/s`,
    );
    /** Medians of the rounds in one set against another's, and how many pairs the second is lower in. */
    const compareRounds = (title, first, second) => {
      const pairs = second.map((b, i) => [first[i], b]).filter(([a]) => a !== undefined);
      console.log(title);
      const ownTotal = (r) => SERVICES.reduce((sum, n) => sum + (r.perCall[n] ?? 0), 0);
      for (const [name, of] of [
        ...names.map((n) => [n, (r) => r.perCall[n]]),
        ['own total', ownTotal],
        ['rps', (r) => r.rps],
      ])
        console.log(
          `    ${name.padEnd(10)} ${median(first.map(of)).toFixed(3)} → ${median(second.map(of)).toFixed(3)} ` +
            `(${pairs.filter(([a, b]) => of(b) < of(a)).length}/${pairs.length})`,
        );
    };
    if (batchServices.length > 0)
      compareRounds(
        `  SCHED_BATCH for ${batchServices.join(',')}: median ms/call of the plain rounds → the batch rounds (pairs with batch lower; for rps, pairs with batch slower):`,
        rounds.filter((r) => !r.batch),
        rounds.filter((r) => r.batch),
      );
    if (args.client === 'both')
      compareRounds(
        `  median ms/call of the undici rounds → the wrk rounds (pairs with wrk lower; for rps, pairs with wrk slower):`,
        rounds.filter((r) => r.client === 'undici'),
        rounds.filter((r) => r.client === 'wrk'),
      );
    console.log('  records per 1,000 calls:');
    for (const [topic, n] of Object.entries(summary.recordsPer1000))
      console.log(`    ${topic.padEnd(28)} ${n.toFixed(1)}`);
    if (summary.gc) {
      console.log('  GC per service (median of rounds):');
      for (const [service, g] of Object.entries(summary.gc)) console.log(`    ${formatGc({ [service]: g })}`);
    }
    if (profiles) {
      for (const [service, p] of Object.entries(profiles)) {
        console.log(`\n${service}: busy ${p.totalMs.toFixed(0)} ms (${p.file})`);
        for (const f of p.packages.slice(0, 12))
          console.log(`  ${(f.share * 100).toFixed(1).padStart(5)} %  ${f.name}`);
        console.log('  -- self by function');
        for (const f of p.functions.slice(0, 25))
          console.log(`  ${(f.share * 100).toFixed(1).padStart(5)} %  ${f.name}`);
      }
    }
  } finally {
    await bus.close().catch(() => undefined);
    await admin.disconnect().catch(() => undefined);
    await platform.stop();
    await upstream.stop();
    if (!args.profile) rmSync(workDir, { recursive: true, force: true });
  }
}

/** Each service's GC figures, the median of each across the rounds that read it. */
function medianGc(perRound) {
  const services = [...new Set(perRound.flatMap((byService) => Object.keys(byService)))];
  return Object.fromEntries(
    services.map((service) => {
      const readings = perRound.map((byService) => byService[service]).filter(Boolean);
      const keys = Object.keys(readings[0]);
      return [service, Object.fromEntries(keys.map((k) => [k, median(readings.map((g) => g[k]))]))];
    }),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
