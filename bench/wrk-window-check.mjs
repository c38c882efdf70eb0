#!/usr/bin/env node
// Checks the full bench's CPU window on distributed Tollgate (h128, issue 17): the platform `npm run bench`
// starts (bench/lib/platform.mjs, seeded through the API), the bench's warm-up (30 s at 8 VUs), an idle gap
// (the direct target's steps), one c=16 step, then a plan of wrk steps at c=64 of 8 s each, each read with
//   plain    the bench's window (lib/load-window.mjs: opened as wrk starts, closed as it ends), or
//   settled  a window opened once every live consumer group has caught up (lag 0 on every topic), closed
//            once the groups have caught up on the step's own events (the tail is printed),
// one JSON line a step: each process's CPU ms per call served, how long the settle and the tail took, the
// host's busy CPU over the window (/proc/stat, every process) and what of it no measured process spent
// (wrk, this script, anything else on the machine), consumer groups that rejoined (a rebalance), the load
// average. At the end, per kind: the median of the steps and the pooled figure (all CPU ÷ all calls).
//
//   export TOLLGATE_INFRA_DIR=/tmp/wwc-infra; bash scripts/infra.sh up; eval "$(bash scripts/infra.sh env)"
//   node bench/wrk-window-check.mjs [--plan plain,settled,settled,plain] [--concurrency 64]
//     [--step-seconds 8] [--warmup-seconds 30] [--idle-seconds 24] [--pre-concurrency 16 (0: none)]
import { mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openCpuWindow } from './lib/cpu.mjs';
import { infrastructureFromEnv } from './lib/infra.mjs';
import { startFakeUpstream, startTollgate } from './lib/platform.mjs';
import { CLOCK_TICKS, infrastructurePids } from './lib/proc.mjs';
import { median } from './lib/stats.mjs';
import { benchTargets } from './lib/targets.mjs';
import { runChatLoad } from './lib/wrk.mjs';
import { workspacePackage } from './lib/workspace.mjs';

const { values: args } = parseArgs({
  options: {
    plan: { type: 'string', default: 'plain,settled,settled,plain,plain,settled,settled,plain' },
    concurrency: { type: 'string', default: '64' },
    'step-seconds': { type: 'string', default: '8' },
    'warmup-seconds': { type: 'string', default: '30' },
    'idle-seconds': { type: 'string', default: '24' },
    'pre-concurrency': { type: 'string', default: '16' },
  },
});
const plan = args.plan.split(',');
if (plan.some((kind) => kind !== 'plain' && kind !== 'settled')) {
  console.error(`--plan ${args.plan}: expected plain and settled, comma-separated`);
  process.exit(2);
}
const concurrency = Number(args.concurrency);
const stepSeconds = Number(args['step-seconds']);

const log = (m) => console.error(`[wrk-window-check ${new Date().toISOString().slice(11, 19)}] ${m}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The host's busy CPU ms since boot, every process and core (/proc/stat's first line, less idle and iowait). */
function hostBusyMs() {
  const [user, nice, system, , , irq, softirq] = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return ((user + nice + system + irq + softirq) * 1000) / CLOCK_TICKS;
}

const infra = infrastructureFromEnv();
const runId = `wwc${Date.now().toString(36)}`;
const logDir = join(tmpdir(), runId);
mkdirSync(logDir, { recursive: true });
const upstream = await startFakeUpstream({ logDir });
await upstream.setLatency(0);
const tollgate = await startTollgate({ infra, upstreamUrl: upstream.url, workers: 1, logDir, runId });
const { Kafka, logLevel } = workspacePackage('kafkajs');
const admin = new Kafka({
  brokers: infra.KAFKA_BROKERS.split(','),
  clientId: runId,
  logLevel: logLevel.NOTHING,
}).admin();
await admin.connect();

/** Groups with members (other runs' groups on a shared broker are empty), by id. */
async function liveGroups() {
  const { groups } = await admin.listGroups();
  const { groups: described } = await admin.describeGroups(groups.map((g) => g.groupId));
  return described.filter((g) => g.state === 'Stable');
}

/** Events the live groups have not committed yet, over every topic they read. */
async function lag() {
  let total = 0;
  for (const group of await liveGroups()) {
    for (const { topic, partitions } of await admin.fetchOffsets({ groupId: group.groupId })) {
      const high = await admin.fetchTopicOffsets(topic);
      for (const { partition, offset } of partitions) {
        const committed = Number(offset);
        const end = Number(high.find((p) => p.partition === partition).high);
        if (committed >= 0) total += Math.max(0, end - committed);
      }
    }
  }
  return total;
}

/** Waits until no live group lags; resolves to the ms it took. */
async function caughtUp() {
  const started = performance.now();
  while ((await lag()) > 0) await sleep(100);
  return performance.now() - started;
}

const memberIds = async () =>
  Object.fromEntries(
    (await liveGroups()).map((g) => [g.groupId, g.members.map((m) => m.memberId).join('+')]),
  );

try {
  const target = benchTargets({
    upstreamUrl: upstream.url,
    gatewayUrl: tollgate.platform.url,
    customer: tollgate.customer,
  }).find((t) => t.name === 'tollgate');
  const processes = {
    own: Object.fromEntries(Object.entries(tollgate.platform.services).map(([n, s]) => [n, s.pid])),
    infra: infrastructurePids(infra, log),
  };
  const measured = { ...target, processes };
  log(`warm-up ${args['warmup-seconds']} s at 8 VUs, idle ${args['idle-seconds']} s`);
  await runChatLoad(measured, { vus: 8, durationSeconds: Number(args['warmup-seconds']) });
  await sleep(Number(args['idle-seconds']) * 1000);
  const preConcurrency = Number(args['pre-concurrency']);
  if (preConcurrency > 0) await runChatLoad(measured, { vus: preConcurrency, durationSeconds: stepSeconds });

  const steps = [];
  for (const [i, kind] of plan.entries()) {
    const busyBefore = hostBusyMs();
    const membersBefore = await memberIds();
    let step;
    if (kind === 'plain') {
      step = {
        ...(await runChatLoad(measured, { vus: concurrency, durationSeconds: stepSeconds })),
        settleMs: 0,
        tailMs: 0,
      };
    } else {
      const settleMs = await caughtUp();
      const window = openCpuWindow(processes);
      const load = await runChatLoad(target, { vus: concurrency, durationSeconds: stepSeconds });
      const tailMs = await caughtUp();
      step = { ...load, cpu: window.close(load.served), settleMs, tailMs };
    }
    const busyMs = hostBusyMs() - busyBefore;
    const membersAfter = await memberIds();
    const measuredMs = Object.values(step.cpu.cpuMs).reduce((a, b) => a + b, 0);
    const line = {
      step: i + 1,
      kind,
      rps: Math.round(step.rps),
      served: step.served,
      settleMs: Math.round(step.settleMs),
      tailMs: Math.round(step.tailMs),
      hostBusyMs: Math.round(busyMs),
      notMeasuredMs: Math.round(busyMs - measuredMs),
      rejoined: Object.keys(membersAfter).filter((g) => membersAfter[g] !== membersBefore[g]),
      load1: Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]),
      own: +step.cpu.ownPerCall.toFixed(4),
      ...Object.fromEntries(Object.entries(step.cpu.perCall).map(([n, ms]) => [n, +ms.toFixed(4)])),
    };
    steps.push({ kind, served: step.served, cpuMs: step.cpu.cpuMs, own: step.cpu.own, line });
    console.log(JSON.stringify(line));
  }
  for (const kind of ['plain', 'settled']) {
    const of = steps.filter((s) => s.kind === kind);
    if (!of.length) continue;
    const calls = of.reduce((sum, s) => sum + s.served, 0);
    const ownMs = of.reduce((sum, s) => sum + s.own.reduce((a, n) => a + s.cpuMs[n], 0), 0);
    console.log(
      `${kind}: ${of.length} steps, own processes ${median(of.map((s) => s.line.own)).toFixed(4)} ms/call (median of the steps), ${(ownMs / calls).toFixed(4)} pooled (all CPU ÷ all ${calls} calls)`,
    );
  }
} finally {
  await admin.disconnect();
  await tollgate.stop();
  await upstream.stop();
}
