// Tollgate in distributed mode (every service its own process, gateway and relay optionally
// clustered) on the run's infrastructure, plus the fake upstream in a process of its own.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { startChild } from './child.mjs';
import { log } from './log.mjs';
import { seedCustomerThroughApi, waitUntilServable } from './seed.mjs';
import { REPO_ROOT, workspacePackage } from './workspace.mjs';

/** Connections a proxy may open to the next hop: enough for the largest stream scenario. */
const HOP_CONNECTIONS = 12_000;

/** Fake upstream defaults: a 64-chunk stream, 20 ms apart, is what the stream scenarios need. */
export const STREAM_SHAPE = { chunks: 64, chunkMs: 20, completionTokens: 64 };

export async function startFakeUpstream({ logDir }) {
  const { match, child, stop } = await startChild({
    name: 'fake upstream',
    command: process.execPath,
    args: [
      join(REPO_ROOT, 'scripts', 'fake-upstream.mjs'),
      '--port',
      '0',
      '--chunks',
      String(STREAM_SHAPE.chunks),
      '--chunk-ms',
      String(STREAM_SHAPE.chunkMs),
      '--completion-tokens',
      String(STREAM_SHAPE.completionTokens),
    ],
    cwd: REPO_ROOT,
    ready: /fake-upstream listening on (http:\/\/\S+)/,
    logFile: join(logDir, 'fake-upstream.log'),
  });
  const url = match[1];
  return {
    url,
    pid: child.pid,
    stop,
    /** Changes the fake upstream's options (latencyMs, chunks, chunkMs, …) for the calls after it. */
    async setOptions(options) {
      const res = await fetch(`${url}/__fake/options`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(options),
      });
      if (!res.ok) throw new Error(`fake upstream refused options: ${res.status} ${await res.text()}`);
    },
    setLatency(latencyMs) {
      return this.setOptions({ latencyMs });
    },
    /** Closes the keep-alive connections no request is using (left by an earlier target's pool). */
    async closeIdleConnections() {
      const res = await fetch(`${url}/__fake/close-idle`, { method: 'POST' });
      if (!res.ok) throw new Error(`fake upstream refused close-idle: ${res.status} ${await res.text()}`);
      return res.json();
    },
  };
}

const START_ATTEMPTS = 3;

/**
 * The launcher gives each service 60 s to become ready; on a machine busy with other work a cold
 * start can take longer. A start that failed only on that is tried again (the launcher has stopped
 * what it started; databases and topics are reused).
 */
async function withStartRetries(start) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (error) {
      if (attempt >= START_ATTEMPTS || !/not ready after/.test(error.message)) throw error;
      log(`start-up attempt ${attempt} timed out (${error.message.split(';')[0]}); trying again`);
    }
  }
}

/**
 * Starts every service, seeds the bench customer and waits until a call through the gateway works.
 * `extraEnv` reaches every service (e.g. NODE_OPTIONS for --cpu-prof); `root` is the checkout whose
 * build runs (this one unless a micro bench compares builds); `readyTimeoutMs` is the launcher's.
 */
export async function startTollgate({
  infra,
  upstreamUrl,
  workers,
  logDir,
  runId,
  extraEnv = {},
  root: checkout = REPO_ROOT,
  readyTimeoutMs,
}) {
  const { startDistributed } = workspacePackage('@tollgate/launcher', checkout);
  const { KafkaEventBus } = workspacePackage('@tollgate/events', checkout);
  const internalSecret = randomBytes(32).toString('hex');
  const encryptionKey = randomBytes(32).toString('base64');
  const root = {
    username: `broot_${randomBytes(4).toString('hex')}`,
    password: randomBytes(12).toString('hex'),
  };
  log(`starting Tollgate (distributed; gateway and relay with ${workers} worker(s) each)`);
  const start = () =>
    startDistributed({
      repoRoot: checkout,
      env: {
        TOLLGATE_INTERNAL_TOKEN_SECRET: internalSecret,
        TOLLGATE_ENCRYPTION_KEY: encryptionKey,
        TOLLGATE_ROOT_USERNAME: root.username,
        TOLLGATE_ROOT_PASSWORD: root.password,
        LOG_LEVEL: 'warn',
        // One load generator on one address: the per-IP limit would measure itself.
        GATEWAY_RATE_LIMIT_PER_MINUTE: '0',
        // The fake upstream is on loopback, which channels may not name by default.
        CHANNEL_BASE_URL_ALLOWED_RANGES: 'loopback',
        // No exchange-rate fetch from the internet during a run.
        CBR_DAILY_URL: 'http://127.0.0.1:9/XML_daily.asp',
        GATEWAY_BACKEND_CONNECTIONS: String(HOP_CONNECTIONS),
        RELAY_UPSTREAM_CONNECTIONS: String(HOP_CONNECTIONS),
        TOLLGATE_WORKERS_GATEWAY: String(workers),
        TOLLGATE_WORKERS_RELAY: String(workers),
        ...extraEnv,
      },
      postgresAdminUrl: infra.DATABASE_URL,
      redisUrl: infra.REDIS_URL,
      kafkaBrokers: infra.KAFKA_BROKERS,
      databasePrefix: `bench_${runId}`,
      logDir,
      ...(readyTimeoutMs === undefined ? {} : { readyTimeoutMs }),
    });
  const platform = await withStartRetries(start);
  const bus = new KafkaEventBus({ brokers: infra.KAFKA_BROKERS.split(','), clientId: `bench-${runId}` });
  try {
    const customer = await seedCustomerThroughApi({ url: platform.url, root, upstreamUrl, runId });
    await waitUntilServable(platform.url, customer);
    log(`Tollgate serves the bench key at ${platform.url}`);
    let stopping;
    return {
      platform,
      bus,
      /** Closes the seeding bus and stops every service, once however often it is called. */
      stop: () =>
        (stopping ??= (async () => {
          await bus.close();
          await platform.stop();
          await dropDatabases(infra.DATABASE_URL, Object.values(platform.databaseUrls));
        })()),
      customer,
      root,
      internalSecret,
      billingDatabaseUrl: platform.databaseUrls.billing,
    };
  } catch (error) {
    await bus.close();
    await platform.stop();
    throw error;
  }
}

/**
 * Drops a stopped platform's databases, so that runs on a shared server (`--infra env`) do not leave
 * theirs behind; a failure is logged, not thrown (the run's results are already in).
 */
async function dropDatabases(adminUrl, databaseUrls) {
  const client = new pg.Client({ connectionString: adminUrl });
  try {
    await client.connect();
    for (const url of databaseUrls) {
      const name = decodeURIComponent(new URL(url).pathname.slice(1));
      await client.query(`drop database if exists "${name.replaceAll('"', '""')}" with (force)`);
    }
  } catch (error) {
    log(`could not drop the run's databases: ${error.message}`);
  } finally {
    await client.end().catch(() => {});
  }
}
