// Billing: how fast usage.recorded events become usage-log rows and ledger entries, and how far the
// billing.usage consumer group falls behind. Measured twice: under Tollgate's own throughput load,
// and with a burst of events published straight onto the topic (billing's capacity, not relay's)
// by many users with balances, so that the burst spreads over every partition of the topic as
// real traffic does (one user's events all land on one partition, keyed by user id).
import { randomInt, randomUUID } from 'node:crypto';
import pg from 'pg';
import { CLOCK_TICKS, processTable, treeOf } from '../lib/proc.mjs';
import { runChatLoad } from '../lib/k6.mjs';
import { log } from '../lib/log.mjs';
import { setBenchBalance } from '../lib/seed.mjs';
import { workspacePackage } from '../lib/workspace.mjs';

const USAGE_GROUP = 'billing.usage';
const PUBLISH_BATCH = 1000;
/** Users of the burst (BENCH_BILLING_USERS overrides; bench/lib/options.mjs has no flag for it yet). */
const BURST_USERS = Number(process.env.BENCH_BILLING_USERS ?? 1000);
/** Issue 17's target rate of settlement. */
const TARGET_RATE = 20_000;
/** Balances set through billing's own call at once. */
const SEED_CONCURRENCY = 16;

async function settledRows(db) {
  const { rows } = await db.query('select count(*)::bigint as n from usage_logs');
  return Number(rows[0].n);
}

/** PostgreSQL backends serving `database` (billing's pool), found by pid in pg_stat_activity. */
async function backendPids(db, database) {
  const { rows } = await db.query(
    'select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
    [database],
  );
  return rows.map((row) => row.pid);
}

/** CPU ms of `pids` and their descendants now, from /proc (0 for a process that is gone). */
function cpuMsOf(pids) {
  const table = processTable();
  let ticks = 0;
  for (const pid of pids) for (const p of treeOf(table, pid)) ticks += table.get(p).ticks;
  return (ticks * 1000) / CLOCK_TICKS;
}

/** Runs `task(i)` for i < count, `concurrency` at a time. */
async function inParallel(count, concurrency, task) {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

async function totalLag(bus, topic) {
  return (await bus.consumerLag(USAGE_GROUP, topic)).reduce((sum, p) => sum + p.lag, 0);
}

/** Polls lag and settled rows until `until()` holds or the deadline passes. */
async function watch(db, bus, topic, { until, timeoutMs, intervalMs = 250 }) {
  let maxLag = 0;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [lag, rows] = await Promise.all([totalLag(bus, topic), settledRows(db)]);
    maxLag = Math.max(maxLag, lag);
    if (until({ lag, rows }) || Date.now() > deadline) return { maxLag, lag, rows, at: performance.now() };
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

function syntheticUsage(customer, price, userId = customer.userId) {
  return {
    v: 1,
    event_id: randomUUID(),
    request_id: `bench-${randomUUID()}`,
    user_id: userId,
    token_id: customer.tokenId,
    token_name: 'bench key',
    channel_id: customer.channelId,
    group: customer.group,
    model: customer.model,
    upstream_model: 'gpt-4o-mini',
    prompt_tokens: 12,
    completion_tokens: 16,
    cached_tokens: 0,
    quota: 6,
    price,
    latency_ms: 1,
    ttft_ms: null,
    is_stream: false,
    status: 'success',
    created_at: Math.floor(Date.now() / 1000),
  };
}

/**
 * Gives `users` fresh users the bench balance through billing's own call (a ledger adjustment, as
 * the bench customer gets it), so the burst charges accounts that exist and can pay.
 */
export async function seedBurstUsers({ billingUrl, internalSecret, users }) {
  const ids = new Set();
  while (ids.size < users) ids.add(randomInt(100_000_000, 2_000_000_000));
  const userIds = [...ids];
  await inParallel(userIds.length, SEED_CONCURRENCY, (i) =>
    setBenchBalance({ billingUrl, internalSecret, userId: userIds[i] }),
  );
  return userIds;
}

/**
 * Publishes `events` usage events of `userIds` (round robin, keyed by user id as relay keys them)
 * straight onto usage.recorded, as fast as it can or at `ratePerSecond`, and watches billing settle
 * them. Reports events/s, the largest lag in events and in seconds (the age of the oldest event not
 * yet settled, taking settlement in publication order), and the CPU billing's processes
 * (`billingPid`) and PostgreSQL's backends of billing's database spent per event over the burst.
 */
export async function billingBurst({
  bus,
  billingDatabaseUrl,
  billingPid,
  customer,
  userIds,
  events,
  ratePerSecond,
}) {
  const { TOPICS } = workspacePackage('@tollgate/contracts');
  const topic = TOPICS.usageRecorded.name;
  const db = new pg.Client({ connectionString: billingDatabaseUrl });
  await db.connect();
  try {
    const settledBefore = await watch(db, bus, topic, { until: ({ lag }) => lag === 0, timeoutMs: 60_000 });
    const partitions = (await bus.consumerLag(USAGE_GROUP, topic)).length;
    const database = new URL(billingDatabaseUrl).pathname.slice(1);
    const backends = await backendPids(db, database);
    const cpuBefore = { billing: cpuMsOf([billingPid]), postgres: cpuMsOf(backends) };
    const price = { input: '0.15', output: '0.6', cached_input: '0.075', group_ratio: '1' };
    const start = settledBefore.rows;
    const burstStart = performance.now();
    /** [time published, events published by then], in publication order. */
    const published = [];
    const publishing = (async () => {
      for (let sent = 0; sent < events; sent += PUBLISH_BATCH) {
        if (ratePerSecond) {
          // Paced: never ahead of `ratePerSecond` since the start.
          const due = burstStart + (sent / ratePerSecond) * 1000;
          if (due > performance.now()) await new Promise((r) => setTimeout(r, due - performance.now()));
        }
        const n = Math.min(PUBLISH_BATCH, events - sent);
        await bus.publish(
          Array.from({ length: n }, (_, i) => {
            const userId = userIds[(sent + i) % userIds.length];
            return { topic, key: String(userId), value: syntheticUsage(customer, price, userId) };
          }),
        );
        published.push([performance.now(), sent + n]);
      }
    })();
    let maxLagSeconds = 0;
    /** The first reading after the last event was published: what billing still had to settle. */
    let afterPublishing;
    const burst = await watch(db, bus, topic, {
      until: ({ rows }) => {
        const settled = rows - start;
        if (!afterPublishing && published.at(-1)?.[1] === events)
          afterPublishing = { settled, at: performance.now() };
        const oldest = published.find(([, count]) => count > settled);
        if (oldest) maxLagSeconds = Math.max(maxLagSeconds, (performance.now() - oldest[0]) / 1000);
        return settled >= events;
      },
      timeoutMs: 300_000,
      intervalMs: 100,
    });
    await publishing;
    const seconds = (burst.at - burstStart) / 1000;
    const settled = burst.rows - start;
    // Backends opened during the burst are counted from 0: their whole life is inside it.
    const backendsAfter = await backendPids(db, database);
    const cpuMs = {
      billing: cpuMsOf([billingPid]) - cpuBefore.billing,
      postgres: cpuMsOf(backendsAfter) - cpuBefore.postgres,
    };
    const result = {
      events,
      ratePerSecond: ratePerSecond ?? null,
      users: userIds.length,
      partitions,
      settled,
      publishSeconds: (published.at(-1)[0] - burstStart) / 1000,
      seconds,
      perSecond: settled / seconds,
      // Billing's own rate once the publisher (slower than billing on a busy machine) is done: the
      // backlog left then over the time it took to settle. Null when nothing was left.
      drainPerSecond:
        afterPublishing && burst.at > afterPublishing.at && settled > afterPublishing.settled
          ? (settled - afterPublishing.settled) / ((burst.at - afterPublishing.at) / 1000)
          : null,
      backlogAfterPublishing: afterPublishing ? events - afterPublishing.settled : null,
      maxLag: burst.maxLag,
      maxLagSeconds,
      cpuMsPerEvent: {
        billing: settled > 0 ? cpuMs.billing / settled : Number.NaN,
        postgres: settled > 0 ? cpuMs.postgres / settled : Number.NaN,
      },
    };
    log(
      `billing ${ratePerSecond ? `at ${ratePerSecond}/s` : 'burst'}: ${settled}/${events} events of ${userIds.length} users over ${partitions} partitions settled in ${seconds.toFixed(2)} s (${result.perSecond.toFixed(0)}/s; published in ${result.publishSeconds.toFixed(2)} s, the ${result.backlogAfterPublishing} left then settled at ${result.drainPerSecond?.toFixed(0) ?? '—'}/s), max lag ${burst.maxLag} events, ${maxLagSeconds.toFixed(2)} s; CPU per event: billing ${result.cpuMsPerEvent.billing.toFixed(3)} ms, PostgreSQL ${result.cpuMsPerEvent.postgres.toFixed(3)} ms`,
    );
    return result;
  } finally {
    await db.end();
  }
}

export async function billingSettlement({ tollgate, target, upstream, durationSeconds, vus, burstEvents }) {
  const { TOPICS } = workspacePackage('@tollgate/contracts');
  const topic = TOPICS.usageRecorded.name;
  const db = new pg.Client({ connectionString: tollgate.billingDatabaseUrl });
  await db.connect();
  let underLoad;
  try {
    await upstream.setLatency(0);
    // Under load: everything relay records while k6 drives Tollgate, then the drain.
    const before = await watch(db, tollgate.bus, topic, { until: ({ lag }) => lag === 0, timeoutMs: 60_000 });
    const loadStart = performance.now();
    let during = { maxLag: 0 };
    let loadDone = false;
    const watcher = watch(db, tollgate.bus, topic, {
      until: () => loadDone,
      timeoutMs: (durationSeconds + 60) * 1000,
    }).then((w) => (during = w));
    const load = await runChatLoad(target, { vus, durationSeconds });
    loadDone = true;
    await watcher;
    const atLoadEnd = await settledRows(db);
    const loadEnd = performance.now();
    const drained = await watch(db, tollgate.bus, topic, {
      until: ({ lag }) => lag === 0,
      timeoutMs: 120_000,
    });
    underLoad = {
      served: load.requests,
      settled: drained.rows - before.rows,
      settledPerSecondDuringLoad: (atLoadEnd - before.rows) / ((loadEnd - loadStart) / 1000),
      maxLag: Math.max(during.maxLag, drained.maxLag),
      drainSeconds: (drained.at - loadEnd) / 1000,
    };
    log(
      `billing under load: ${underLoad.served} served, ${underLoad.settled} settled, max lag ${underLoad.maxLag}, drained ${underLoad.drainSeconds.toFixed(2)} s after the load`,
    );
  } finally {
    await db.end();
  }

  // Burst: billing's own capacity, many users over every partition.
  const userIds = await seedBurstUsers({
    billingUrl: tollgate.platform.services.billing.url,
    internalSecret: tollgate.internalSecret,
    users: Math.min(BURST_USERS, burstEvents),
  });
  const settle = (ratePerSecond) =>
    billingBurst({
      bus: tollgate.bus,
      billingDatabaseUrl: tollgate.billingDatabaseUrl,
      billingPid: target?.processes?.own?.billing ?? tollgate.platform.services.billing.pid,
      customer: tollgate.customer,
      userIds,
      events: burstEvents,
      ratePerSecond,
    });
  const burst = await settle(undefined);
  // The target as issue 17 states it: the same events at 20,000 a second, settled within a second.
  const paced = await settle(TARGET_RATE);
  return { underLoad, burst, paced };
}
