// Billing: how fast usage.recorded events become usage-log rows and ledger entries, and how far the
// billing.usage consumer group falls behind. Measured under Tollgate's own throughput load, then with
// events published straight onto the topic (billing's capacity, not relay's) by many users with
// balances, so that they spread over every partition of the topic as real traffic does (one user's
// events all land on one partition, keyed by user id): as fast as the publishers can, paced at the
// target rate, and all waiting before billing resumes (its own drain rate, whatever the publishers
// reach). The events are built before the clock starts and published by the Go publisher
// (bench/load/billing-go, built by scripts/billing-load.sh) when Go is installed, otherwise from worker
// threads (a kafkajs producer each), so the main thread's readings of lag are not held up behind the
// publishing. Each phase says which publisher ran and what it cost per event.
import { spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import pg from 'pg';
import { v7 as uuidV7 } from 'uuid';
import { runToEnd } from '../lib/child.mjs';
import { databaseCpuMs, startPostgresCpu } from '../lib/pg-backends.mjs';
import {
  CLOCK_TICKS,
  jitCompilerCpuMs,
  listeningPid,
  processTable,
  threadsOf,
  treeOf,
} from '../lib/proc.mjs';
import { runChatLoad } from '../lib/chat-load.mjs';
import { log } from '../lib/log.mjs';
import { setBenchBalance } from '../lib/seed.mjs';
import { REPO_ROOT, workspacePackage } from '../lib/workspace.mjs';

const USAGE_GROUP = 'billing.usage';
const PUBLISH_BATCH = 1000;
/** Users of the burst (BENCH_BILLING_USERS overrides; bench/lib/options.mjs has no flag for it yet). */
const BURST_USERS = Number(process.env.BENCH_BILLING_USERS ?? 1000);
/** Issue 17's target rate of settlement. */
const TARGET_RATE = 20_000;
/** Balances set through billing's own call at once. */
const SEED_CONCURRENCY = 16;
/**
 * Publishers (worker threads, a producer each) of the burst; BENCH_BILLING_PUBLISHERS overrides. On this
 * 2-core machine one reached as much as two or four (billing, PostgreSQL and Kafka share the cores).
 */
const PUBLISHERS = Number(process.env.BENCH_BILLING_PUBLISHERS ?? 1);
const PUBLISHER_ROLE = 'billing-publisher';
/** `node` makes the Node publishers run even where Go is installed (BENCH_BILLING_PUBLISHER). */
const PUBLISHER_KIND = process.env.BENCH_BILLING_PUBLISHER ?? 'go';

/**
 * What billing's database is like at a phase's start (its size decides how much of the settlement's
 * random-key indexes stay in shared buffers), and its block counters to difference over the phase.
 */
async function databaseState(db) {
  const {
    rows: [row],
  } = await db.query(`select pg_database_size(current_database())::bigint as bytes,
      (select coalesce(sum(n_dead_tup), 0) from pg_stat_user_tables)::bigint as dead,
      blks_hit::bigint as hit, blks_read::bigint as read
    from pg_stat_database where datname = current_database()`);
  return { bytes: Number(row.bytes), dead: Number(row.dead), hit: Number(row.hit), read: Number(row.read) };
}

async function settledRows(db) {
  const { rows } = await db.query('select count(*)::bigint as n from usage_logs');
  return Number(rows[0].n);
}

/** CPU ms of each of `pids` and their descendants now, from /proc (a process that is gone is left out). */
function cpuMsByPid(pids) {
  const table = processTable();
  const byPid = new Map();
  for (const pid of pids)
    for (const p of treeOf(table, pid)) byPid.set(p, (table.get(p).ticks * 1000) / CLOCK_TICKS);
  return byPid;
}

/**
 * CPU ms spent since `before` (cpuMsByPid) by `pids` and their descendants, process by process: one
 * that started since counts whole, one that ended meanwhile is left out (subtracting it from the
 * total made PostgreSQL's figure of a phase far too low when billing's pool closed a connection).
 */
function cpuMsSince(before, pids) {
  let ms = 0;
  for (const [pid, now] of cpuMsByPid(pids)) ms += now - (before.get(pid) ?? 0);
  return ms;
}

/** Runs `task(i)` for i < count, `concurrency` at a time. */
async function inParallel(count, concurrency, task) {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

/**
 * billing.usage's lag and its committed position summed over the partitions: events billing has
 * settled (it commits an offset only after the batch's transaction). Read from Kafka, not by
 * counting usage_logs: a count every 100 ms of a table of 100,000+ rows without a visibility map
 * yet took PostgreSQL CPU from the very settlement it measured.
 */
async function groupPosition(bus, topic) {
  let lag = 0;
  let committed = 0;
  for (const p of await bus.consumerLag(USAGE_GROUP, topic)) {
    lag += p.lag;
    // Without a commit the group starts at the partition's start, which is endOffset - lag.
    committed += p.committedOffset ?? p.endOffset - p.lag;
  }
  return { lag, committed };
}

/** Polls the group's lag and committed position until `until()` holds or the deadline passes. */
async function watch(bus, topic, { until, timeoutMs, intervalMs = 250 }) {
  let maxLag = 0;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { lag, committed } = await groupPosition(bus, topic);
    maxLag = Math.max(maxLag, lag);
    if (until({ lag, committed }) || Date.now() > deadline)
      return { maxLag, lag, committed, at: performance.now() };
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

function syntheticUsage(customer, price, userId = customer.userId) {
  return {
    v: 1,
    // Time-ordered like relay's (uuid v7): billing's indexes on them grow at their end.
    event_id: uuidV7(),
    request_id: `bench-${uuidV7()}`,
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

/** The time now on a clock that worker threads share (performance.now() starts anew in each). */
const epochMs = () => performance.timeOrigin + performance.now();

const SYNTHETIC_PRICE = { input: '0.15', output: '0.6', cached_input: '0.075', group_ratio: '1' };

/** Event `i` of a burst: round robin over `userIds`, keyed by user id as relay keys them. */
function burstEvent(topic, customer, userIds, i) {
  const userId = userIds[i % userIds.length];
  return { topic, key: String(userId), value: syntheticUsage(customer, SYNTHETIC_PRICE, userId) };
}

/**
 * Publishes batches of events, never ahead of `ratePerSecond` (when given) since `startMs` (epochMs),
 * calling `onPublished(count, atMs)` after each batch is acknowledged.
 */
async function publishBatches(bus, batches, { ratePerSecond, startMs, onPublished }) {
  let sent = 0;
  for (const batch of batches) {
    if (ratePerSecond) {
      const due = startMs + (sent / ratePerSecond) * 1000;
      if (due > epochMs()) await new Promise((r) => setTimeout(r, due - epochMs()));
    }
    await bus.publish(batch);
    sent += batch.length;
    onPublished(batch.length, epochMs());
  }
}

/** A publisher thread: builds its share of the events, waits for the go, publishes them, reports progress. */
async function runPublisherWorker({ brokers, topic, customer, userIds, events, ratePerSecond, index }) {
  const { KafkaEventBus } = workspacePackage('@tollgate/events');
  const bus = new KafkaEventBus({ brokers, clientId: `bench-billing-publisher-${index}` });
  try {
    const batches = [];
    for (let sent = 0; sent < events; sent += PUBLISH_BATCH) {
      const n = Math.min(PUBLISH_BATCH, events - sent);
      batches.push(Array.from({ length: n }, (_, i) => burstEvent(topic, customer, userIds, sent + i)));
    }
    parentPort.postMessage({ ready: true });
    const { startMs } = await new Promise((resolve) => parentPort.once('message', resolve));
    await publishBatches(bus, batches, {
      ratePerSecond,
      startMs,
      onPublished: (count, at) => parentPort.postMessage({ count, at }),
    });
  } finally {
    await bus.close();
  }
  parentPort.postMessage({ done: true });
}

if (!isMainThread && workerData?.role === PUBLISHER_ROLE) {
  runPublisherWorker(workerData).catch((error) => {
    parentPort.postMessage({ error: error.stack ?? String(error) });
  });
}

/**
 * The per-event fields of a usage event in the Go publisher's template, as Node would write them:
 * four markers the publisher replaces (bench/load/billing-go/main.go), user id and time unquoted.
 */
function goTemplate(customer) {
  const value = syntheticUsage(customer, SYNTHETIC_PRICE, '@@user_id@@');
  value.event_id = '@@event_id@@';
  value.request_id = 'bench-@@request_id@@';
  value.created_at = '@@created_at@@';
  return JSON.stringify(value)
    .replace('"@@user_id@@"', '@@user_id@@')
    .replace('"@@created_at@@"', '@@created_at@@');
}

let goPublisherPath;

/** The Go publisher's binary, built once per run; undefined when Go is not installed. */
function resolveGoPublisher() {
  goPublisherPath ??= runToEnd('bash', [join(REPO_ROOT, 'scripts', 'billing-load.sh')], {
    timeoutMs: 600_000,
  })
    .then(({ stdout }) => stdout.trim().split('\n').at(-1))
    .catch((error) => {
      log(`billing: the Go publisher is unavailable (${error.message.split('\n')[0]}); publishing from Node`);
      return undefined;
    });
  return goPublisherPath;
}

/**
 * The Go publisher as a child process (its protocol in bench/load/billing-go/main.go): every event
 * built and a broker reached before this resolves; `go()` as in preparePublishers, and it reports
 * the publisher's own CPU ms from the go to the last acknowledgement.
 */
async function prepareGoPublisher({
  binary,
  brokers,
  topic,
  customer,
  userIds,
  events,
  ratePerSecond,
  onPublished,
}) {
  const child = spawn(binary, [], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  // A publisher that died is reported by its exit below; writing to it must not throw meanwhile.
  child.stdin.on('error', () => undefined);
  const lines = createInterface({ input: child.stdout });
  let markReady;
  let markDone;
  let fail;
  const ready = new Promise((resolve, reject) => {
    markReady = resolve;
    fail = reject;
  });
  const done = new Promise((resolve, reject) => {
    markDone = resolve;
    const previous = fail;
    fail = (error) => {
      previous(error);
      reject(error);
    };
  });
  done.catch(() => undefined);
  lines.on('line', (line) => {
    const message = JSON.parse(line);
    if (message.ready) markReady();
    else if (message.done) markDone(message);
    else if (message.error) fail(new Error(`Go publisher: ${message.error}`));
    else onPublished(message.count, message.at);
  });
  child.once('exit', (code, signal) =>
    fail(new Error(`Go publisher exited (${signal ?? code}): ${stderr.slice(-500)}`)),
  );
  child.stdin.write(
    `${JSON.stringify({
      brokers,
      topic,
      clientId: 'bench-billing-publisher-go',
      template: goTemplate(customer),
      userIds,
      events,
      rate: ratePerSecond ?? 0,
      chunk: PUBLISH_BATCH,
    })}\n`,
  );
  try {
    await ready;
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    count: 1,
    kind: 'go',
    go: async () => {
      child.stdin.write(`${JSON.stringify({ startMs: epochMs() })}\n`);
      try {
        const { cpuMs } = await done;
        return { cpuMs };
      } finally {
        child.stdin.end();
        if (child.exitCode === null) child.kill('SIGTERM');
      }
    },
  };
}

/** CPU ms so far of each of this process's threads: tid → ms (/proc/self/task). */
function threadCpuMs() {
  return new Map(threadsOf('self').map(({ tid, cpuMs }) => [tid, cpuMs]));
}

/**
 * Prepares `events` usage events of `userIds` for publication onto usage.recorded: by the Go
 * publisher when Go is installed (and BENCH_BILLING_PUBLISHER is not `node`), otherwise by `publishers`
 * worker threads, each with its own producer and its own users (a user's events keep their order).
 * Without `brokers`, one publisher on this thread through `bus`. `go()` starts publishing (at
 * `ratePerSecond` overall, when given) and resolves when every event is acknowledged;
 * `onPublished(count, atMs)` is called after each acknowledged batch.
 */
export async function preparePublishers({
  bus,
  brokers,
  topic,
  customer,
  userIds,
  events,
  ratePerSecond,
  publishers,
  onPublished,
}) {
  if (brokers && PUBLISHER_KIND !== 'node') {
    const binary = await resolveGoPublisher();
    if (binary)
      return prepareGoPublisher({
        binary,
        brokers,
        topic,
        customer,
        userIds,
        events,
        ratePerSecond,
        onPublished,
      });
  }
  if (!brokers || publishers < 1) {
    const batches = [];
    for (let sent = 0; sent < events; sent += PUBLISH_BATCH) {
      const n = Math.min(PUBLISH_BATCH, events - sent);
      batches.push(Array.from({ length: n }, (_, i) => burstEvent(topic, customer, userIds, sent + i)));
    }
    return {
      count: 1,
      kind: 'node (main thread)',
      go: async () => {
        await publishBatches(bus, batches, { ratePerSecond, startMs: epochMs(), onPublished });
        return { cpuMs: Number.NaN };
      },
    };
  }
  const count = Math.min(publishers, userIds.length);
  // Event i goes to user i % users, as with one publisher; publisher w takes the users with index ≡ w.
  const shares = Array.from({ length: count }, () => ({ userIds: [], events: 0 }));
  userIds.forEach((userId, i) => shares[i % count].userIds.push(userId));
  for (let i = 0; i < events; i++) shares[(i % userIds.length) % count].events++;
  const workers = [];
  const ready = [];
  const done = [];
  // The threads that start with the workers are theirs (their CPU is the publishers').
  const threadsBefore = threadCpuMs();
  for (const [index, share] of shares.entries()) {
    const worker = new Worker(new URL(import.meta.url), {
      workerData: {
        role: PUBLISHER_ROLE,
        brokers,
        topic,
        customer,
        userIds: share.userIds,
        events: share.events,
        ratePerSecond: ratePerSecond ? (ratePerSecond * share.events) / events : undefined,
        index,
      },
    });
    workers.push(worker);
    let markReady;
    ready.push(new Promise((resolve) => (markReady = resolve)));
    done.push(
      new Promise((resolve, reject) => {
        worker.on('message', (message) => {
          if (message.ready) markReady();
          else if (message.done) resolve();
          else if (message.error) reject(new Error(`publisher ${index}: ${message.error}`));
          else onPublished(message.count, message.at);
        });
        worker.once('error', reject);
        worker.once('exit', (code) =>
          code === 0 ? resolve() : reject(new Error(`publisher ${index} exited ${code}`)),
        );
      }),
    );
  }
  try {
    // A publisher that fails before it is ready fails the preparation.
    await Promise.race([Promise.all(ready), Promise.race(done).then(() => new Promise(() => undefined))]);
  } catch (error) {
    await Promise.all(workers.map((worker) => worker.terminate()));
    throw error;
  }
  const publisherThreads = [...threadCpuMs().keys()].filter((tid) => !threadsBefore.has(tid));
  const publisherCpuMs = () => {
    const now = threadCpuMs();
    return publisherThreads.reduce((ms, tid) => ms + (now.get(tid) ?? 0), 0);
  };
  return {
    count,
    kind: 'node',
    go: async () => {
      const cpuBefore = publisherCpuMs();
      const startMs = epochMs();
      for (const worker of workers) worker.postMessage({ startMs });
      try {
        await Promise.all(done);
        // A thread that ended before this reading takes its time with it: a lower bound then.
        return { cpuMs: publisherCpuMs() - cpuBefore };
      } finally {
        await Promise.all(workers.map((worker) => worker.terminate()));
      }
    },
  };
}

/** Stops (SIGSTOP) or resumes (SIGCONT) a process and its descendants. */
function signalTree(pid, signal) {
  for (const p of treeOf(processTable(), pid)) {
    try {
      process.kill(p, signal);
    } catch {
      // ended meanwhile
    }
  }
}

/**
 * Publishes `events` usage events of `userIds` (round robin, keyed by user id as relay keys them)
 * straight onto usage.recorded, as fast as the publishers can or at `ratePerSecond`, and watches
 * billing settle them. Reports the rate offered (events over the time publishing took) and settled,
 * the largest lag in events and in seconds (the age of the oldest event not yet settled, taking
 * settlement in publication order), and the CPU per event over the burst of billing's processes
 * (`billingPid`), of PostgreSQL's backends of billing's database (ended ones included) and of the
 * whole PostgreSQL server (bench/lib/pg-backends.mjs).
 *
 * With `prefill`, billing's processes are stopped (SIGSTOP: its group keeps its partitions and
 * commits nothing) while every event is published, then resumed: `drainPerSecond` is then billing's
 * own rate on a full backlog, timed from its first settled rows to the last, and the CPU is counted
 * from the resume.
 */
export async function billingBurst({
  bus,
  brokers,
  billingDatabaseUrl,
  billingPid,
  customer,
  userIds,
  events,
  ratePerSecond,
  publishers = PUBLISHERS,
  prefill = false,
}) {
  const { TOPICS } = workspacePackage('@tollgate/contracts');
  const topic = TOPICS.usageRecorded.name;
  const db = new pg.Client({ connectionString: billingDatabaseUrl });
  await db.connect();
  let postgresCpu;
  try {
    const settledBefore = await watch(bus, topic, { until: ({ lag }) => lag === 0, timeoutMs: 60_000 });
    const partitions = (await bus.consumerLag(USAGE_GROUP, topic)).length;
    const database = new URL(billingDatabaseUrl).pathname.slice(1);
    const start = settledBefore.committed;
    const rowsBefore = await settledRows(db);
    const databaseBefore = await databaseState(db);
    /** [time published (performance.now()), events published by then], in publication order. */
    const published = [];
    let publishedCount = 0;
    const sources = await preparePublishers({
      bus,
      brokers,
      topic,
      customer,
      userIds,
      events,
      ratePerSecond,
      publishers,
      onPublished: (count, atMs) => {
        publishedCount += count;
        published.push([atMs - performance.timeOrigin, publishedCount]);
      },
    });
    const {
      rows: [{ pid: benchBackend }],
    } = await db.query('select pg_backend_pid() as pid');
    // Billing's own database (its backends, ended ones included) beside the whole server, which also
    // serves auth's, admin's and chat's databases in the bench's platform.
    // Undefined when PostgreSQL is not on this machine (--infra env pointing elsewhere): its CPU then reads n/a.
    postgresCpu = await startPostgresCpu({
      databaseUrl: billingDatabaseUrl,
      excludePids: [benchBackend],
    }).catch((error) => log(`billing: PostgreSQL's CPU is not measured (${error.message})`));
    // The broker (when it runs on this machine): its CPU, and its JIT compiler's apart (bench/ANALYSIS.md, H46).
    const kafkaPid = brokers ? listeningPid(Number(new URL(`tcp://${brokers[0]}`).port)) : undefined;
    const kafkaCpuMs = () =>
      kafkaPid
        ? { all: cpuMsByPid([kafkaPid]).get(kafkaPid) ?? 0, jit: jitCompilerCpuMs(kafkaPid) }
        : undefined;
    let kafkaCpuBefore = kafkaCpuMs();
    let billingCpuBefore = cpuMsByPid([billingPid]);
    const burstStart = performance.now();
    let publishing;
    let resumedAt;
    if (prefill) {
      signalTree(billingPid, 'SIGSTOP');
      try {
        publishing = Promise.resolve(await sources.go());
      } finally {
        resumedAt = performance.now();
        billingCpuBefore = cpuMsByPid([billingPid]);
        kafkaCpuBefore = kafkaCpuMs();
        await postgresCpu?.restart();
        signalTree(billingPid, 'SIGCONT');
      }
    } else {
      publishing = sources.go();
      publishing.catch(() => undefined);
    }
    let maxLagSeconds = 0;
    /** The first reading after the last event was published: what billing still had to settle. */
    let afterPublishing;
    /** The first reading with rows settled by this burst. */
    let firstSettled;
    const burst = await watch(bus, topic, {
      until: ({ committed }) => {
        const settled = committed - start;
        if (!firstSettled && settled > 0) firstSettled = { settled, at: performance.now() };
        if (!afterPublishing && published.at(-1)?.[1] === events)
          afterPublishing = { settled, at: performance.now() };
        const oldest = published.find(([, count]) => count > settled);
        if (oldest) maxLagSeconds = Math.max(maxLagSeconds, (performance.now() - oldest[0]) / 1000);
        return settled >= events;
      },
      timeoutMs: 300_000,
      intervalMs: 100,
    });
    const publisherCpuMs = (await publishing).cpuMs;
    const seconds = (burst.at - burstStart) / 1000;
    const settled = burst.committed - start;
    // Every committed event has its usage-log row (rows may trail only when an event repeats one).
    // Read before the count below, which scans usage_logs.
    const databaseAfter = await databaseState(db);
    const rows = (await settledRows(db)) - rowsBefore;
    // Fewer rows than committed events: another billing in the same consumer group (a platform sharing
    // this Kafka, with its own database) took some partitions, and every figure of the phase is off.
    if (rows !== settled)
      log(
        `billing: ${settled} events committed but ${rows} usage-log rows written (another member of ${USAGE_GROUP} on this Kafka?)`,
      );
    const postgres = (await postgresCpu?.stop()) ?? {
      serverMs: Number.NaN,
      byDatabase: {},
      unattributedMs: 0,
    };
    const billingCpuMs = cpuMsSince(billingCpuBefore, [billingPid]);
    const kafkaCpuAfter = kafkaCpuMs();
    const perEvent = (ms) => (settled > 0 ? ms / settled : Number.NaN);
    const publishSeconds = (published.at(-1)[0] - burstStart) / 1000;
    // Billing's own rate once the publishers are done: the backlog left then over the time it took
    // to settle (with prefill, from billing's first settled rows). Null when nothing was left.
    const drainFrom = prefill ? firstSettled : afterPublishing;
    const result = {
      events,
      ratePerSecond: ratePerSecond ?? null,
      prefill,
      publisher: sources.kind,
      publishers: sources.count,
      users: userIds.length,
      partitions,
      settled,
      /** Usage-log rows the phase wrote: `settled` unless another consumer of the group took partitions. */
      usageLogRows: rows,
      publishSeconds,
      offeredPerSecond: events / publishSeconds,
      seconds,
      perSecond: settled / (prefill ? (burst.at - resumedAt) / 1000 : seconds),
      drainPerSecond:
        drainFrom && burst.at > drainFrom.at && settled > drainFrom.settled
          ? (settled - drainFrom.settled) / ((burst.at - drainFrom.at) / 1000)
          : null,
      backlogAfterPublishing: afterPublishing ? events - afterPublishing.settled : null,
      maxLag: burst.maxLag,
      maxLagSeconds,
      cpuMsPerEvent: {
        billing: perEvent(billingCpuMs),
        // Billing's database: every process that served it (backends, those that ended during the phase
        // included, their parallel workers, its autovacuum).
        postgres: postgresCpu ? perEvent(databaseCpuMs(postgres.byDatabase, database).total) : Number.NaN,
        // The whole PostgreSQL server (every database, checkpointer, walwriter, …), the bench's own connections left out.
        postgresServer: perEvent(postgres.serverMs),
        // The broker over the phase (with prefill, from the resume: billing's fetches and commits only).
        kafka: kafkaCpuAfter ? perEvent(kafkaCpuAfter.all - kafkaCpuBefore.all) : Number.NaN,
        kafkaJit: kafkaCpuAfter ? perEvent(kafkaCpuAfter.jit - kafkaCpuBefore.jit) : Number.NaN,
        // The publisher's own CPU from its go to its last acknowledgement, per event published.
        publisher: publisherCpuMs / events,
      },
      /**
       * Billing's database at the start (usage-log rows, bytes, dead tuples) and its shared-buffer hits
       * and reads (blocks not in shared buffers: from the OS cache or disk) per event over the phase.
       */
      database: {
        usageLogRows: rowsBefore,
        bytes: databaseBefore.bytes,
        deadTuples: databaseBefore.dead,
        blocksHitPerEvent: perEvent(databaseAfter.hit - databaseBefore.hit),
        blocksReadPerEvent: perEvent(databaseAfter.read - databaseBefore.read),
      },
      /** PostgreSQL's CPU ms per event by database (or backend type), and what could not be told apart. */
      postgresPerEvent: {
        ...Object.fromEntries(
          Object.entries(postgres.byDatabase)
            .filter(([, ms]) => ms > 0)
            .map(([label, ms]) => [label, perEvent(ms)]),
        ),
        ...(postgres.unattributedMs > 0 ? { unattributed: perEvent(postgres.unattributedMs) } : {}),
      },
    };
    const kind = prefill ? 'pre-filled' : ratePerSecond ? `at ${ratePerSecond}/s` : 'burst';
    log(
      `billing ${kind}: ${settled}/${events} events of ${userIds.length} users over ${partitions} partitions from ${sources.count} ${sources.kind} publisher(s), offered at ${result.offeredPerSecond.toFixed(0)}/s (${publishSeconds.toFixed(2)} s), settled in ${seconds.toFixed(2)} s (${result.perSecond.toFixed(0)}/s; the ${result.backlogAfterPublishing} left after publishing settled at ${result.drainPerSecond?.toFixed(0) ?? '—'}/s), max lag ${burst.maxLag} events, ${maxLagSeconds.toFixed(2)} s; CPU per event: billing ${result.cpuMsPerEvent.billing.toFixed(3)} ms, its PostgreSQL database ${result.cpuMsPerEvent.postgres.toFixed(3)} ms (the whole server ${result.cpuMsPerEvent.postgresServer.toFixed(3)} ms), Kafka ${result.cpuMsPerEvent.kafka.toFixed(3)} ms (its JIT ${result.cpuMsPerEvent.kafkaJit.toFixed(3)}), the publisher ${result.cpuMsPerEvent.publisher.toFixed(3)} ms`,
    );
    return result;
  } finally {
    await postgresCpu?.stop().catch(() => undefined);
    await db.end();
  }
}

/**
 * `users` and `publishers` of the burst default to BENCH_BILLING_USERS and BENCH_BILLING_PUBLISHERS
 * (or 1,000 and 1).
 */
export async function billingSettlement({
  tollgate,
  target,
  upstream,
  durationSeconds,
  vus,
  burstEvents,
  users = BURST_USERS,
  publishers = PUBLISHERS,
}) {
  const { TOPICS } = workspacePackage('@tollgate/contracts');
  const topic = TOPICS.usageRecorded.name;
  await upstream.setLatency(0);
  // Under load: everything relay records while the load generator drives Tollgate, then the drain.
  const before = await watch(tollgate.bus, topic, { until: ({ lag }) => lag === 0, timeoutMs: 60_000 });
  const loadStart = performance.now();
  let during = { maxLag: 0 };
  let loadDone = false;
  const watcher = watch(tollgate.bus, topic, {
    until: () => loadDone,
    timeoutMs: (durationSeconds + 60) * 1000,
  }).then((w) => (during = w));
  const load = await runChatLoad(target, { vus, durationSeconds });
  loadDone = true;
  await watcher;
  const atLoadEnd = (await groupPosition(tollgate.bus, topic)).committed;
  const loadEnd = performance.now();
  const drained = await watch(tollgate.bus, topic, {
    until: ({ lag }) => lag === 0,
    timeoutMs: 120_000,
  });
  const underLoad = {
    served: load.requests,
    settled: drained.committed - before.committed,
    settledPerSecondDuringLoad: (atLoadEnd - before.committed) / ((loadEnd - loadStart) / 1000),
    maxLag: Math.max(during.maxLag, drained.maxLag),
    drainSeconds: (drained.at - loadEnd) / 1000,
  };
  log(
    `billing under load: ${underLoad.served} served, ${underLoad.settled} settled, max lag ${underLoad.maxLag}, drained ${underLoad.drainSeconds.toFixed(2)} s after the load`,
  );

  // Burst: billing's own capacity, many users over every partition.
  const userIds = await seedBurstUsers({
    billingUrl: tollgate.platform.services.billing.url,
    internalSecret: tollgate.internalSecret,
    users: Math.min(users, burstEvents),
  });
  const settle = (options) =>
    billingBurst({
      bus: tollgate.bus,
      brokers: tollgate.platform.kafkaBrokers?.split(','),
      billingDatabaseUrl: tollgate.billingDatabaseUrl,
      billingPid: target?.processes?.own?.billing ?? tollgate.platform.services.billing.pid,
      customer: tollgate.customer,
      userIds,
      events: burstEvents,
      publishers,
      ...options,
    });
  const burst = await settle({});
  // The target as issue 17 states it: the same events at 20,000 a second, settled within a second.
  const paced = await settle({ ratePerSecond: TARGET_RATE });
  // Billing's own rate, whatever the publishers reach: the events waiting before it starts.
  const prefilled = await settle({ prefill: true });
  return { underLoad, burst, paced, prefilled };
}
