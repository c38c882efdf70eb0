// Billing: how fast usage.recorded events become usage-log rows and ledger entries, and how far the
// billing.usage consumer group falls behind. Measured twice: under Tollgate's own throughput load,
// and with a burst of events published straight onto the topic (billing's capacity, not relay's).
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { runChatLoad } from '../lib/k6.mjs';
import { log } from '../lib/log.mjs';
import { workspacePackage } from '../lib/workspace.mjs';

const USAGE_GROUP = 'billing.usage';
const PUBLISH_BATCH = 1000;

async function settledRows(db) {
  const { rows } = await db.query('select count(*)::bigint as n from usage_logs');
  return Number(rows[0].n);
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

function syntheticUsage(customer, price) {
  return {
    v: 1,
    event_id: randomUUID(),
    request_id: `bench-${randomUUID()}`,
    user_id: customer.userId,
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

export async function billingSettlement({ tollgate, target, upstream, durationSeconds, vus, burstEvents }) {
  const { TOPICS } = workspacePackage('@tollgate/contracts');
  const topic = TOPICS.usageRecorded.name;
  const db = new pg.Client({ connectionString: tollgate.billingDatabaseUrl });
  await db.connect();
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
    const underLoad = {
      served: load.requests,
      settled: drained.rows - before.rows,
      settledPerSecondDuringLoad: (atLoadEnd - before.rows) / ((loadEnd - loadStart) / 1000),
      maxLag: Math.max(during.maxLag, drained.maxLag),
      drainSeconds: (drained.at - loadEnd) / 1000,
    };
    log(
      `billing under load: ${underLoad.served} served, ${underLoad.settled} settled, max lag ${underLoad.maxLag}, drained ${underLoad.drainSeconds.toFixed(2)} s after the load`,
    );

    // Burst: billing's own capacity.
    const price = { input: '0.15', output: '0.6', cached_input: '0.075', group_ratio: '1' };
    const start = await settledRows(db);
    const burstStart = performance.now();
    for (let sent = 0; sent < burstEvents; sent += PUBLISH_BATCH) {
      const n = Math.min(PUBLISH_BATCH, burstEvents - sent);
      await tollgate.bus.publish(
        Array.from({ length: n }, () => ({
          topic,
          key: String(tollgate.customer.userId),
          value: syntheticUsage(tollgate.customer, price),
        })),
      );
    }
    const published = performance.now();
    const burst = await watch(db, tollgate.bus, topic, {
      until: ({ rows }) => rows - start >= burstEvents,
      timeoutMs: 300_000,
      intervalMs: 100,
    });
    const seconds = (burst.at - burstStart) / 1000;
    const result = {
      underLoad,
      burst: {
        events: burstEvents,
        settled: burst.rows - start,
        publishSeconds: (published - burstStart) / 1000,
        seconds,
        perSecond: (burst.rows - start) / seconds,
        maxLag: burst.maxLag,
      },
    };
    log(
      `billing burst: ${result.burst.settled}/${burstEvents} settled in ${seconds.toFixed(2)} s (${result.burst.perSecond.toFixed(0)}/s), max lag ${burst.maxLag}`,
    );
    return result;
  } finally {
    await db.end();
  }
}
