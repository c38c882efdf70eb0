#!/usr/bin/env node
// `npm run bench`: starts PostgreSQL, Redis and Kafka, Tollgate in distributed and in embedded mode, the
// fake upstream and Portkey's gateway, runs the scenarios against both Tollgates, Portkey and the
// upstream directly (alternating, several rounds), reading every target's processes' CPU from /proc
// around each load, and writes bench/RESULTS.md. `--smoke` runs each scenario for a few seconds (for
// npm test): it fails only when the harness itself breaks, never on a number.
// Needs the compiled project: node scripts/build.mjs.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { killAllChildren } from './lib/child.mjs';
import { loadAverage, machine, versions } from './lib/environment.mjs';
import { openInfrastructure } from './lib/infra.mjs';
import { warmBrokerUntilCompiled } from './lib/broker-warmup.mjs';
import { loadGeneratorVersion, runChatLoad, useLoadGenerator } from './lib/chat-load.mjs';
import { log } from './lib/log.mjs';
import { parseOptions, USAGE } from './lib/options.mjs';
import { startFakeUpstream, startTollgate } from './lib/platform.mjs';
import { startPortkey } from './lib/portkey.mjs';
import { startEmbeddedTollgate } from './lib/embedded.mjs';
import { infrastructurePids, openFileLimit } from './lib/proc.mjs';
import { renderReport, writeReport } from './lib/report.mjs';
import { treeRss } from './lib/rss.mjs';
import { benchTargets } from './lib/targets.mjs';
import { REPO_ROOT } from './lib/workspace.mjs';
import { addedLatency } from './scenarios/added-latency.mjs';
import { billingSettlement } from './scenarios/billing.mjs';
import { profileHotPath, profilerEnv } from './scenarios/profile.mjs';
import { concurrentStreams } from './scenarios/streams.mjs';
import { throughput } from './scenarios/throughput.mjs';
import { timeToFirstToken } from './scenarios/ttft.mjs';
import { chatTimeToFirstToken } from './scenarios/chat.mjs';
import { seedChatUser } from './lib/chat-customer.mjs';

const options = parseOptions(process.argv.slice(2));

// 10,000 streams through two hops need over 20,000 descriptors in the gateway and in the relay: raise
// this process's limit in place (children inherit it), or say why the largest stream levels may fail.
const NOFILE = 65_536;
const softNofile = openFileLimit('self') ?? NOFILE;
if (softNofile < NOFILE)
  try {
    execFileSync('prlimit', ['--pid', String(process.pid), `--nofile=${NOFILE}:${NOFILE}`], {
      stdio: 'pipe',
    });
  } catch (error) {
    log(
      `could not raise the open-file limit from ${softNofile} to ${NOFILE} (${String(error.stderr ?? error.message).trim()}); 10,000 streams need it`,
    );
  }
if (options.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}

if (options.render) {
  // Renders a stored run again (after bench/ANALYSIS.md changed): no measuring.
  const run = JSON.parse(readFileSync(options.render, 'utf8'));
  run.startedAt = new Date(run.startedAt);
  run.finishedAt = new Date(run.finishedAt);
  const file = options.render.replace(/\.json$/, '.md');
  writeReport(file, renderReport(run), run);
  log(`wrote ${relative(REPO_ROOT, file)}`);
  process.exit(0);
}

const runId = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
const logDir = join(REPO_ROOT, 'reports', 'bench', runId);
mkdirSync(logDir, { recursive: true });
const outFile =
  options.out ?? join(REPO_ROOT, options.smoke ? 'reports/bench-smoke/RESULTS.md' : 'bench/RESULTS.md');
const startedAt = new Date();
const cleanups = [];
const results = { errors: [] };

async function scenario(name, run) {
  if (!options.scenarios.includes(name)) return;
  log(`scenario: ${name}`);
  try {
    results[name] = await run();
  } catch (error) {
    // One broken scenario must not cost the others' numbers; the run still fails at the end.
    log(`scenario ${name} failed: ${error.stack ?? error.message}`);
    results.errors.push({ scenario: name, message: error.message });
  }
}

/** The embedded platform, or undefined (and an error for the run) when it cannot start. */
async function startEmbeddedTarget(upstream) {
  if (!options.embedded) return undefined;
  try {
    return await startEmbeddedTollgate({ upstreamUrl: upstream.url, logDir, runId });
  } catch (error) {
    log(`the embedded platform did not start: ${error.stack ?? error.message}`);
    results.errors.push({ scenario: 'embedded start', message: error.message });
    return undefined;
  }
}

/** Everything measured on the main platforms, which are stopped at the end so the profiled one runs alone. */
async function measureScenarios({ infra, upstream, portkey }) {
  // The smoke run profiles the distributed Tollgate it measured, last (see profileInPlace).
  const profileInPlace = options.smoke && options.scenarios.includes('profile');
  const profileDir = join(logDir, 'cpu-profiles');
  // Both platforms start at once: the embedded one's start-up is hidden behind the distributed one's.
  const [distributed, embedded] = await Promise.allSettled([
    startTollgate({
      infra: infra.env,
      upstreamUrl: upstream.url,
      workers: options.workers,
      logDir,
      runId,
      extraEnv: profileInPlace ? profilerEnv(profileDir) : {},
    }),
    startEmbeddedTarget(upstream),
  ]);
  const cleanupsBefore = cleanups.length;
  const tollgateEmbedded = embedded.status === 'fulfilled' ? embedded.value : undefined;
  if (tollgateEmbedded) cleanups.push(() => tollgateEmbedded.stop());
  if (distributed.status === 'rejected') throw distributed.reason;
  const tollgate = distributed.value;
  cleanups.push(() => tollgate.stop());

  const targets = benchTargets({
    upstreamUrl: upstream.url,
    gatewayUrl: tollgate.platform.url,
    customer: tollgate.customer,
    embedded: tollgateEmbedded,
    portkeyUrl: portkey?.url,
  });
  // Every process of each target (a service's cluster workers and PostgreSQL's backends are found
  // as descendants at each reading), and the infrastructure reported beside distributed Tollgate.
  const processes = {
    direct: { own: { upstream: upstream.pid } },
    tollgate: {
      own: Object.fromEntries(
        Object.entries(tollgate.platform.services)
          .filter(([, service]) => service.pid)
          .map(([name, service]) => [name, service.pid]),
      ),
      infra: infrastructurePids(infra.env, log),
    },
    'tollgate-embedded': tollgateEmbedded ? { own: { embedded: tollgateEmbedded.pid } } : undefined,
    portkey: portkey ? { own: { portkey: portkey.pid } } : undefined,
  };
  for (const target of targets) target.processes = processes[target.name];
  if (options.idleSettleSeconds) {
    log(`idle ${options.idleSettleSeconds} s before reading idle RSS`);
    await new Promise((r) => setTimeout(r, options.idleSettleSeconds * 1000));
  }
  results.idleSettleSeconds = options.idleSettleSeconds;
  results.idleRss = Object.fromEntries(
    targets.filter((t) => t.name !== 'direct').map((t) => [t.name, treeRss(t.processes.own)]),
  );

  log(`warming up every target (${options.warmupSeconds} s each, 8 VUs)`);
  for (const target of targets) await runChatLoad(target, { vus: 8, durationSeconds: options.warmupSeconds });
  const brokerPid = processes.tollgate.infra.kafka;
  const brokerMatters = ['latency', 'throughput', 'ttft', 'chat'].some((name) =>
    options.scenarios.includes(name),
  );
  if (options.brokerWarmupSeconds > 0 && brokerPid && brokerMatters) {
    log(
      `warming distributed Tollgate until its Kafka broker stops compiling (at most ${options.brokerWarmupSeconds} s)`,
    );
    results.brokerWarmup = await warmBrokerUntilCompiled({
      target: targets.find((target) => target.name === 'tollgate'),
      brokerPid,
      runLoad: runChatLoad,
      maxSeconds: options.brokerWarmupSeconds,
    });
    const { seconds, jitMsPerSecond } = results.brokerWarmup;
    log(
      `broker warm-up: ${seconds} s, its JIT compiler ${jitMsPerSecond.map((ms) => ms.toFixed(1)).join(', ')} ms/s`,
    );
  }

  const rounds = options.rounds;
  await scenario('latency', () =>
    addedLatency({
      targets,
      upstream,
      rounds: options.latencyRounds,
      durationSeconds: options.latencySeconds,
    }),
  );
  await scenario('throughput', () =>
    throughput({
      targets,
      upstream,
      rounds,
      durationSeconds: options.throughputSeconds,
      ladders: options.ladders,
    }),
  );
  await scenario('ttft', () =>
    timeToFirstToken({ targets, upstream, rounds, durationSeconds: options.ttftSeconds }),
  );
  await scenario('chat', async () =>
    chatTimeToFirstToken({
      targets,
      chatTarget: await seedChatUser({
        gatewayUrl: tollgate.platform.url,
        billingUrl: tollgate.platform.services.billing.url,
        internalSecret: tollgate.internalSecret,
        root: tollgate.root,
        model: tollgate.customer.model,
      }),
      upstream,
      rounds,
      durationSeconds: options.ttftSeconds,
    }),
  );
  await scenario('streams', () =>
    concurrentStreams({
      targets,
      upstream,
      levels: options.streamLevels,
      processesOf: (name) => processes[name].own,
    }),
  );
  await scenario('billing', () =>
    billingSettlement({
      tollgate,
      target: targets.find((t) => t.name === 'tollgate'),
      upstream,
      durationSeconds: options.billingSeconds,
      vus: options.billingVus,
      burstEvents: options.burstEvents,
      ...(options.billingUsers ? { users: options.billingUsers } : {}),
      ...(options.billingPublishers ? { publishers: options.billingPublishers } : {}),
    }),
  );
  if (profileInPlace) {
    await scenario('profile', () =>
      profileHotPath({
        upstream,
        logDir,
        runId,
        durationSeconds: options.profileSeconds,
        running: tollgate,
        profileDir,
      }),
    );
  }
  while (cleanups.length > cleanupsBefore) await cleanups.pop()();
}

/** How the run's non-streaming loads were driven, for the report's command lines. */
const LOAD_GENERATOR_LINES = {
  wrk: [
    "# wrk: bash scripts/wrk.sh (Debian's package), one thread, one connection per virtual user:",
    '#   wrk --threads 1 --connections N --duration Ds --timeout 60s --script bench/wrk/chat.lua URL   (BODY, HEADERS_FILE, SUMMARY_FILE)',
  ],
  k6: [
    '# k6: bash scripts/k6.sh (go install go.k6.io/k6@<pinned>), run with K6_NO_USAGE_REPORT=true:',
    '#   k6 run --quiet --no-thresholds bench/k6/chat.js   (TARGET_URL, HEADERS, MODEL, VUS, DURATION)',
  ],
};

async function main() {
  results.loadAverage = { atStart: loadAverage() };
  useLoadGenerator(options.loadGenerator);
  const generatorVersion = await loadGeneratorVersion();
  const infra = await openInfrastructure({
    mode: options.infra,
    stateDir: join(tmpdir(), `tollgate-bench-infra-${runId}`),
  });
  cleanups.push(() => infra.close());
  const upstream = await startFakeUpstream({ logDir });
  cleanups.push(() => upstream.stop());
  const measured = options.scenarios.some((name) => name !== 'profile');
  const portkey = measured && options.portkey ? await startPortkey({ logDir }) : undefined;
  if (portkey) cleanups.push(() => portkey.stop());
  if (measured) await measureScenarios({ infra, upstream, portkey });
  // A full run profiles a Tollgate of its own, alone on the machine, after the others stopped.
  if (!(measured && options.smoke)) {
    await scenario('profile', () =>
      profileHotPath({ infra: infra.env, upstream, logDir, runId, durationSeconds: options.profileSeconds }),
    );
  }

  results.loadAverage.atEnd = loadAverage();
  const argv = process.argv.slice(2).join(' ');
  const run = {
    options,
    results,
    machine: machine(),
    versions: await versions({
      infra: infra.env,
      loadGenerator: { [options.loadGenerator]: generatorVersion },
      portkey: portkey ? `@portkey-ai/gateway ${portkey.version}` : undefined,
    }),
    commands: {
      run: `npm run bench${argv ? ` -- ${argv}` : ''}`,
      lines: [
        'node scripts/build.mjs',
        `npm run bench${argv ? ` -- ${argv}` : ''}`,
        ...LOAD_GENERATOR_LINES[options.loadGenerator],
        '# streams and TTFT: node bench/load/streams.mjs --mode hold|ttft --url … --concurrency N',
        `# logs and CPU profiles of this run: ${relative(REPO_ROOT, logDir)}/`,
      ],
    },
    startedAt,
    finishedAt: new Date(),
  };
  writeReport(outFile, renderReport(run), run);
  log(`wrote ${relative(REPO_ROOT, outFile)}`);
  if (results.errors.length)
    throw new Error(
      `${results.errors.length} scenario(s) broke: ${results.errors.map((e) => e.scenario).join(', ')}`,
    );
}

async function cleanUp() {
  let ok = true;
  while (cleanups.length) {
    try {
      await cleanups.pop()();
    } catch (error) {
      log(`cleanup failed: ${error.message}`);
      ok = false;
    }
  }
  killAllChildren();
  return ok;
}

// Interrupted: stop the platform, Portkey, the upstream and the infrastructure before leaving.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    log(`${signal}: stopping what the run started`);
    void cleanUp().finally(() => process.exit(130));
  });
}

let exitCode = 0;
try {
  await main();
} catch (error) {
  log(`bench failed: ${error.stack ?? error.message}`);
  exitCode = 1;
}
if (!(await cleanUp())) exitCode = 1;
process.exit(exitCode);
