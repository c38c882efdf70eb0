#!/usr/bin/env node
// CPU per call of gateway and relay alone (issue 17): one gateway and one relay process (one worker
// each, distributed mode, on the Redis and Kafka named by REDIS_URL and KAFKA_BROKERS), the fake
// upstream answering at once, a fixed number of non-streaming chat calls at each concurrency, and each
// process's utime + stime from /proc/<pid>/stat read right before and right after the calls. Wall
// time and req/s are printed too, but on a shared machine only the CPU per call is comparable.
//
//   node scripts/build.mjs
//   export TOLLGATE_INFRA_DIR=/tmp/hot-path-infra           # a Redis and Kafka of the run's own (see below)
//   bash scripts/infra.sh up redis kafka && eval "$(bash scripts/infra.sh env redis kafka)"
//   node bench/hot-path-cpu.mjs                        # 6,000 calls at c=1, 12,000 at c=16, 3 rounds
//   node bench/hot-path-cpu.mjs --profile              # and a V8 CPU profile of each, under c=16
//   node bench/hot-path-cpu.mjs --root /other/checkout # a built copy of the repository (before/after)
//
// Only gateway, relay and the fake upstream are started: billing and the other consumers of
// usage.recorded are left out (their cost is not the hot path's), and the customer, its price and its
// balance are published straight onto the compacted topics relay reads. On a broker shared with other
// platforms, their billing settles this run's usage.recorded and publishes the user's balance as it
// knows it (none), and relay refuses the calls with 402 from then on: give the run a broker of its own.
// A run with any failed call says so and exits 1. Apart from the seeding (bench/lib/relay-customer.mjs),
// the call loop and the process helpers (bench/lib/processes.mjs, net.mjs) it shares nothing with
// bench/lib, so the main bench can change without moving these numbers.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { summarizeCpuProfile } from './lib/cpu-profile.mjs';
import { sendChatCalls } from './lib/chat-calls.mjs';
import { infrastructureFromEnv } from './lib/infra.mjs';
import { cpuTicks, nodeProcesses } from './lib/processes.mjs';
import { serviceSecrets, startRelayBehindGateway } from './lib/standalone-services.mjs';
import { namedLog } from './lib/log.mjs';

const PROFILER_PRELOAD = fileURLToPath(new URL('./lib/cpu-profiler.preload.cjs', import.meta.url));

const { values: args } = parseArgs({
  options: {
    root: { type: 'string', default: join(dirname(fileURLToPath(import.meta.url)), '..') },
    levels: { type: 'string', default: '1:6000,16:12000' },
    rounds: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '3000' },
    profile: { type: 'boolean', default: false },
    'profile-calls': { type: 'string', default: '6000' },
    'profile-concurrency': { type: 'string', default: '16' },
    out: { type: 'string' },
    label: { type: 'string', default: '' },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(
    'node bench/hot-path-cpu.mjs [--root DIR] [--levels 1:6000,16:12000] [--rounds 3] [--warmup 3000] [--profile] [--out FILE.json] [--label TEXT]',
  );
  process.exit(0);
}

const ROOT = resolve(args.root);
const requireFromRoot = createRequire(join(ROOT, 'package.json'));
const CLK_TCK = 100;

infrastructureFromEnv(['REDIS_URL', 'KAFKA_BROKERS']);
for (const entry of ['apps/relay/dist/main.js', 'apps/gateway/dist/main.js']) {
  if (!existsSync(join(ROOT, entry))) {
    console.error(`${join(ROOT, entry)} is missing: node scripts/build.mjs first`);
    process.exit(2);
  }
}

const runId = `h${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
// Short: relay's spool directory holds lock sockets (at most 80 bytes of path).
const workDir = join(tmpdir(), `hpc-${runId}`);
mkdirSync(workDir, { recursive: true });
const log = namedLog('hot-path-cpu');

// ---- processes

const { start: startProcess, stopAll } = nodeProcesses({ logDir: workDir, cwd: ROOT });

// ---- load: a fixed number of calls, `concurrency` at a time, on keep-alive connections

function runCalls(url, customer, calls, concurrency) {
  return sendChatCalls({ Pool: requireFromRoot('undici').Pool, url, customer, calls, concurrency });
}

async function measure(url, customer, pids, calls, concurrency) {
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuTicks(pid)]));
  const load = await runCalls(url, customer, calls, concurrency);
  const after = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuTicks(pid)]));
  const cpuMsPerCall = Object.fromEntries(
    Object.keys(pids).map((name) => [name, ((after[name] - before[name]) * (1000 / CLK_TCK)) / calls]),
  );
  return { concurrency, ...load, rps: calls / load.seconds, cpuMsPerCall };
}

// ---- the run

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const { KafkaEventBus } = requireFromRoot('@tollgate/events');
  const secrets = serviceSecrets();
  const profileDir = join(workDir, 'profiles');
  let preload = [];
  if (args.profile) {
    mkdirSync(profileDir);
    // This checkout's preload, also for a --root checkout that may not have it.
    preload = ['--require', PROFILER_PRELOAD];
  }

  log(`root ${ROOT}, logs in ${workDir}`);
  // The V8 flags the distributed launcher starts each with (none in a checkout from before c436801).
  const { serviceNodeFlags = () => [] } = requireFromRoot('@tollgate/launcher');
  const bus = new KafkaEventBus({ brokers: process.env.KAFKA_BROKERS.split(','), clientId: `hpc-${runId}` });
  try {
    const { gatewayUrl, relay, gateway, customer } = await startRelayBehindGateway({
      root: ROOT,
      requireFromRoot,
      startProcess,
      workDir,
      secrets,
      bus,
      runId,
      prefix: 'hpc',
      label: 'Hot path',
      nodeArgsOf: (service) => [...serviceNodeFlags(service), ...preload],
      env: { BENCH_CPU_PROFILE_DIR: profileDir },
    });
    const pids = { gateway: gateway.child.pid, relay: relay.child.pid };

    log(`warm-up: ${args.warmup} calls at c=16`);
    await runCalls(gatewayUrl, customer, Number(args.warmup), 16);

    // What the processes spend with no calls at all (timers, Kafka and Redis clients), for reference:
    // at c=1 it is a visible part of the CPU per call.
    const idleBefore = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuTicks(pid)]));
    await new Promise((r) => setTimeout(r, 5000));
    const idleMsPerSecond = Object.fromEntries(
      Object.entries(pids).map(([name, pid]) => [
        name,
        ((cpuTicks(pid) - idleBefore[name]) * (1000 / CLK_TCK)) / 5,
      ]),
    );
    log(`idle: gateway ${idleMsPerSecond.gateway} ms/s, relay ${idleMsPerSecond.relay} ms/s`);

    const levels = args.levels.split(',').map((level) => {
      const [c, n] = level.split(':').map(Number);
      return { concurrency: c, calls: n };
    });
    const rounds = [];
    for (let round = 0; round < Number(args.rounds); round++) {
      for (const { concurrency, calls } of levels) {
        const result = await measure(gatewayUrl, customer, pids, calls, concurrency);
        rounds.push(result);
        log(
          `round ${round + 1} c=${concurrency}: ${calls} calls (${result.failed} failed${result.firstFailure ? `: ${result.firstFailure}` : ''}) in ${result.seconds.toFixed(1)} s, ` +
            `${result.rps.toFixed(0)} req/s; CPU ms/call gateway ${result.cpuMsPerCall.gateway.toFixed(3)}, relay ${result.cpuMsPerCall.relay.toFixed(3)}`,
        );
      }
    }
    const failed = rounds.reduce((sum, r) => sum + r.failed, 0);
    if (failed > 0) {
      process.exitCode = 1;
      log(`${failed} calls failed: these numbers do not measure served calls`);
    }
    const summary = levels.map(({ concurrency }) => {
      const of = rounds.filter((r) => r.concurrency === concurrency);
      return {
        concurrency,
        gatewayMsPerCall: median(of.map((r) => r.cpuMsPerCall.gateway)),
        relayMsPerCall: median(of.map((r) => r.cpuMsPerCall.relay)),
        rps: median(of.map((r) => r.rps)),
      };
    });

    let profiles;
    if (args.profile) {
      const concurrency = Number(args['profile-concurrency']);
      writeFileSync(join(profileDir, 'start'), '');
      await new Promise((r) => setTimeout(r, 300));
      log(`profiling: ${args['profile-calls']} calls at c=${concurrency}`);
      await runCalls(gatewayUrl, customer, Number(args['profile-calls']), concurrency);
    }
    await stopAll();
    if (args.profile) {
      profiles = {};
      for (const service of ['gateway', 'relay']) {
        const name = readdirSync(profileDir).find((entry) => entry.startsWith(`${service}.`));
        const file = join(profileDir, name);
        profiles[service] = { file, ...summarizeCpuProfile(file, { top: 30, inclusive: 80 }) };
      }
    }

    const report = {
      label: args.label,
      root: ROOT,
      runId,
      at: new Date().toISOString(),
      idleMsPerSecond,
      summary,
      rounds,
      profiles,
    };
    if (args.out) writeFileSync(args.out, JSON.stringify(report, null, 2));
    console.log(`hot path CPU per call (${args.label || ROOT}), median of ${args.rounds} rounds:`);
    console.log(`  idle  gateway ${idleMsPerSecond.gateway} ms/s  relay ${idleMsPerSecond.relay} ms/s`);
    for (const s of summary) {
      console.log(
        `  c=${String(s.concurrency).padEnd(3)} gateway ${s.gatewayMsPerCall.toFixed(3)} ms  relay ${s.relayMsPerCall.toFixed(3)} ms  (${s.rps.toFixed(0)} req/s)`,
      );
    }
    if (profiles) {
      for (const [service, p] of Object.entries(profiles)) {
        console.log(`\n${service}: busy ${p.totalMs.toFixed(0)} ms (${p.file})`);
        for (const f of p.packages.slice(0, 12))
          console.log(`  ${(f.share * 100).toFixed(1).padStart(5)} %  ${f.name}`);
        console.log('  -- self by function');
        for (const f of p.functions.slice(0, 20))
          console.log(`  ${(f.share * 100).toFixed(1).padStart(5)} %  ${f.name}`);
      }
    }
  } finally {
    await bus.close().catch(() => undefined);
    await stopAll();
    if (!args.profile) rmSync(join(workDir, 'spool'), { recursive: true, force: true });
  }
}

main().catch(async (error) => {
  console.error(error);
  await stopAll();
  process.exit(1);
});
