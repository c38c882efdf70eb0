// `npm run chaos`: the distributed platform on its own PostgreSQL, Redis and Kafka, two relay and
// two billing replicas, a mixed load, faults one at a time and two at once, then the money checks.
// Writes reports/chaos/<run id>/REPORT.md. Needs the compiled project: node scripts/build.mjs.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, relative } from 'node:path';
import { startFakeUpstream, startFakeYookassa, DEFAULT_FAKE_UPSTREAM_KEYS } from '@tollgate/testing';
import {
  callsByWindow,
  judgeBalanceFloor,
  judgeCalls,
  judgeReservations,
  judgeSettlement,
  judgeTopUps,
  summarizeTightClient,
  type FaultResult,
} from './checks';
import { ROTATING_PROFILES } from './client-profiles';
import { outboxPending, readEvidence, readReservations, usageLag } from './evidence';
import { FaultInjector, type AppliedFault } from './fault-injector';
import { Infrastructure } from './infra';
import { LoadDriver } from './load';
import { parseOptions, USAGE, type ChaosOptions } from './options';
import { RELAY_QUOTA, startChaosPlatform, type ChaosPlatform } from './platform';
import { renderReport, verdict, type ChaosRun } from './report';
import { seedWorld, STARTING_QUOTA, type CustomerPlan } from './seed';

const REPO_ROOT = join(__dirname, '..', '..');
const started = Date.now();
const log = (line: string) =>
  process.stderr.write(`chaos [${((Date.now() - started) / 1000).toFixed(1)}s] ${line}\n`);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Cleanup = () => Promise<void>;
const cleanups: Cleanup[] = [];

async function cleanUp(): Promise<void> {
  while (cleanups.length) {
    try {
      await cleanups.pop()!();
    } catch (error) {
      log(`cleanup failed: ${(error as Error).message}`);
    }
  }
}

/** Waits until a call that started after `since` was served; false after `timeoutMs`. */
async function servedSince(load: LoadDriver, since: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (load.records.calls.some((c) => c.complete && c.startedAt >= since)) return true;
    await pause(250);
  }
  return false;
}

/** After the load: until every outbox is published and billing has consumed every usage event. */
async function drain(platform: ChaosPlatform, kafkaBrokers: string, runId: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  let pending: Record<string, number> = {};
  let lag: number | null = null;
  while (Date.now() < deadline) {
    try {
      pending = await outboxPending(platform.platform.databaseUrls);
      lag = await usageLag(kafkaBrokers, runId);
      if (lag === 0 && Object.values(pending).every((n) => n === 0)) break;
    } catch (error) {
      log(`drain: ${(error as Error).message}`);
    }
    await pause(2000);
  }
  return { pending, lag };
}

async function main(options: ChaosOptions, argv: string[]): Promise<boolean> {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '');
  const shortId = Math.random().toString(36).slice(2, 8);
  const runId = `${stamp}-${shortId}`;
  const outDir = options.out ?? join(REPO_ROOT, 'reports', 'chaos', runId);
  const logDir = join(outDir, 'logs');
  mkdirSync(logDir, { recursive: true });
  log(`run ${runId}: logs in ${relative(REPO_ROOT, logDir)}`);

  const infra = new Infrastructure(REPO_ROOT, join(tmpdir(), `tollgate-chaos-infra-${shortId}`));
  cleanups.push(async () => {
    log('stopping the infrastructure');
    await infra.down();
    rmSync(infra.stateDir, { recursive: true, force: true });
  });
  log(`starting PostgreSQL, Redis and Kafka (scripts/infra.sh, state in ${infra.stateDir})`);
  const infraEnv = await infra.up();

  const upstream = await startFakeUpstream({ port: 0, completionTokens: 16, chunks: 8, chunkMs: 20 });
  cleanups.push(() => upstream.close());
  const yookassa = await startFakeYookassa();
  cleanups.push(() => yookassa.close());

  log('starting the platform: two relay and two billing replicas behind balancers');
  const platform = await startChaosPlatform({
    repoRoot: REPO_ROOT,
    infra: infraEnv,
    runId: shortId,
    logDir,
    env: {
      YOOKASSA_API_URL: yookassa.apiUrl,
      YOOKASSA_SHOP_ID: yookassa.shopId,
      YOOKASSA_SECRET_KEY: yookassa.secretKey,
    },
  });
  cleanups.push(async () => {
    log('stopping the platform');
    await platform.stop();
  });
  log(`platform up at ${platform.url}`);

  const plans: CustomerPlan[] = [
    ...Array.from({ length: options.apiClients }, (_, i) => ({
      profile: ROTATING_PROFILES[i % ROTATING_PROFILES.length]!,
      quota: STARTING_QUOTA,
    })),
    { profile: 'tight', quota: options.tightQuota },
    // The chat user: its profile is not used.
    { profile: 'openai', quota: STARTING_QUOTA },
  ];
  const { root, customers } = await seedWorld({
    gatewayUrl: platform.url,
    root: platform.root,
    upstreamUrl: upstream.url,
    upstreamKeys: DEFAULT_FAKE_UPSTREAM_KEYS,
    customers: plans,
    runId: shortId,
  });
  const chatUser = customers.pop()!;
  const tightClient = customers.find((c) => c.profile === 'tight')!;
  log(
    `seeded ${customers.length} API customers (${customers.map((c) => c.profile).join(', ')}) and a chat user`,
  );

  const load = new LoadDriver({
    gatewayUrl: platform.url,
    customers,
    chatUser: chatUser.session,
    yookassa,
    callTimeoutMs: options.callTimeoutSeconds * 1000,
  });
  const runStarted = new Date();
  load.start();
  await pause(options.calmSeconds * 1000);

  const injector = new FaultInjector(
    platform,
    infra,
    { downMs: options.downSeconds * 1000, freezeMs: options.freezeSeconds * 1000 },
    log,
  );
  const applied: AppliedFault[] = [];
  for (const fault of options.faults) {
    const window = await injector.apply(fault);
    applied.push(window);
    const recovered = await servedSince(load, window.liftedAt, options.recoverTimeoutSeconds * 1000);
    if (!recovered) window.problems.push(`no call served within ${options.recoverTimeoutSeconds} s after it`);
    log(`fault ${window.name}: ${recovered ? 'served again' : 'NOT recovered'}`);
    await pause(options.calmSeconds * 1000);
  }

  log('stopping the load; the provider delivers its last notifications');
  await load.stop(options.drainTimeoutSeconds * 1000);
  const loadStoppedAt = Date.now();
  log('waiting for every event to be settled');
  const settled = await drain(platform, infraEnv.KAFKA_BROKERS, shortId, options.drainTimeoutSeconds * 1000);
  // Every settled charge stays in relay's store as a hold for holdMs: what is left after that was
  // never settled or released.
  const holdsLapse = loadStoppedAt + RELAY_QUOTA.holdMs + 3 * RELAY_QUOTA.leaseMs + 5000;
  log(`waiting ${Math.max(0, Math.round((holdsLapse - Date.now()) / 1000))} s for relay's holds to lapse`);
  await pause(Math.max(0, holdsLapse - Date.now()));
  const outstanding = await readReservations(infraEnv.REDIS_URL, RELAY_QUOTA.reservationTtlMs);

  const { calls, topUps, notes } = load.records;
  const evidence = await readEvidence({
    billingDatabaseUrl: platform.platform.databaseUrls.billing,
    requestIds: calls.map((c) => c.chargeId ?? c.requestId),
    root,
  });
  const windows = callsByWindow(calls, applied);
  const faults = applied.map((fault, i) => ({
    ...judgeCalls(fault.name, windows[i + 1]!, evidence.usage, fault, calls),
    problems: fault.problems,
  }));
  const calm: FaultResult = judgeCalls('calm', windows[0]!, evidence.usage);
  const run: ChaosRun = {
    runId,
    command: `npm run chaos${argv.length ? ` -- ${argv.join(' ')}` : ''}`,
    startedAt: runStarted,
    finishedAt: new Date(),
    machine: `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} at the end (shared with other work)`,
    calm,
    faults,
    topUps: judgeTopUps(topUps, evidence.credits),
    ledgerAudit: { clean: evidence.ledgerAudit.length === 0, mismatched: evidence.ledgerAudit.length },
    balanceFloor: judgeBalanceFloor(evidence.balances, evidence.largestCallQuota),
    settlement: judgeSettlement(settled.pending, settled.lag),
    reservations: judgeReservations(
      outstanding,
      applied,
      options.callTimeoutSeconds * 1000 + 2 * RELAY_QUOTA.leaseMs,
    ),
    tightClient: summarizeTightClient(
      calls,
      tightClient.name,
      tightClient.quota,
      evidence.balances.find((b) => b.userId === tightClient.userId)?.quota ?? Number.NaN,
      runStarted.getTime(),
    ),
    calls,
    notes,
  };
  writeFileSync(join(outDir, 'REPORT.md'), renderReport(run));
  writeFileSync(
    join(outDir, 'run.json'),
    JSON.stringify(
      {
        ...run,
        calls: undefined,
        options,
        topUpRecords: topUps,
        faultWindows: applied,
        outstandingReservations: outstanding,
      },
      null,
      2,
    ),
  );
  writeFileSync(join(outDir, 'calls.jsonl'), calls.map((c) => JSON.stringify(c)).join('\n') + '\n');
  log(`wrote ${relative(REPO_ROOT, join(outDir, 'REPORT.md'))}: ${verdict(run) ? 'PASS' : 'FAIL'}`);
  return verdict(run);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping what the run started`);
    void cleanUp().finally(() => process.exit(130));
  });
}

void (async () => {
  const argv = process.argv.slice(2);
  let exitCode = 0;
  try {
    const options = parseOptions(argv);
    if ('help' in options) {
      process.stdout.write(USAGE);
      return;
    }
    exitCode = (await main(options, argv)) ? 0 : 1;
  } catch (error) {
    log(`chaos run failed: ${(error as Error).stack ?? (error as Error).message}`);
    exitCode = 2;
  }
  await cleanUp();
  process.exit(exitCode);
})();
