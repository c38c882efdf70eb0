#!/usr/bin/env node
// One outbox relay's round, alone (issue 17, H65): what the relay of a service sends per round and what
// it costs, for each checkout given (its compiled libs/persistence), in interleaved rounds, each a fresh
// process and database. Per round: the messages pg sent (Simple Query, Parse, Bind, Sync: a Sync or a
// Simple Query is a round trip), the CPU of this thread around flushNow (with an in-thread PGlite it
// runs PostgreSQL too) and, on PostgreSQL, of the server's backends (their schedstat). Each round first
// commits --rows events (not measured), then the relay publishes them to a bus that takes them at once;
// --rows 0 is an idle poll. --lag adds the lag report (every round) to what is measured.
//
//   node bench/micro/outbox-round.mjs --roots base=/tmp/h65/base,chg=/tmp/h65/chg \
//     --target pglite|postgres [--sole] [--rows 1] [--rounds 400] [--pairs 3] [--lag] \
//     [--variant <name>[,<name>]]
//
// --target postgres takes the server from DATABASE_URL (bash scripts/infra.sh env postgres) and makes a
// database per run. --variant (PostgreSQL) changes the outbox's indexes after the migration, to compare
// what the publish writes (WAL bytes, index entries, HOT updates per published row; see VARIANTS).
// --sole is the embedded relay (read, publish, mark; no transaction), else the locking one (replicas).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    roots: { type: 'string', default: 'head=.' },
    target: { type: 'string', default: 'pglite' },
    sole: { type: 'boolean', default: false },
    rows: { type: 'string', default: '1' },
    rounds: { type: 'string', default: '400' },
    pairs: { type: 'string', default: '3' },
    lag: { type: 'boolean', default: false },
    variant: { type: 'string', default: 'current' },
    child: { type: 'string' },
  },
});

/** Index changes applied after the outbox migration (PostgreSQL): what else the purge and the scan could use. */
const VARIANTS = {
  current: [],
  // No index for the purge (it would read the primary key in id order): one index entry fewer per publish.
  'no-purge-index': ['drop index outbox_messages_published_at_idx'],
  // No index names published_at: the update can be HOT (the scan then reads the primary key in id order).
  'no-published-index': [
    'drop index outbox_messages_published_at_idx',
    'drop index outbox_messages_unpublished_idx',
  ],
};

if (args.child) {
  const options = JSON.parse(args.child);
  console.log(JSON.stringify(await measure(options)));
  process.exit(0);
}

const roots = args.roots.split(',').map((entry) => {
  const [label, path] = entry.split('=');
  return { label, root: resolve(path) };
});
const variants = args.variant.split(',');
const runs = roots.flatMap(({ label, root }) =>
  variants.map((variant) => ({ label: variants.length > 1 ? `${label}/${variant}` : label, root, variant })),
);
const results = [];
for (let pair = 0; pair < Number(args.pairs); pair++) {
  for (const run of pair % 2 === 0 ? runs : [...runs].reverse()) {
    const dir = mkdtempSync(join(tmpdir(), 'tollgate-outbox-round-'));
    try {
      const options = {
        root: run.root,
        variant: run.variant,
        dir,
        target: args.target,
        sole: args.sole,
        rows: Number(args.rows),
        rounds: Number(args.rounds),
        lag: args.lag,
      };
      const out = execFileSync(
        process.execPath,
        [fileURLToPath(import.meta.url), '--child', JSON.stringify(options)],
        {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      const result = { pair, label: run.label, ...JSON.parse(out.trim().split('\n').at(-1)) };
      results.push(result);
      console.log(JSON.stringify(result));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
for (const { label } of runs) {
  const mine = results.filter((r) => r.label === label);
  const cell = (key, digits = 3) => median(mine.map((r) => r.perRound[key] ?? 0)).toFixed(digits);
  console.log(
    `${label.padEnd(28)} per round: thread ${cell('threadMs')} ms, backends ${cell('backendMs')} ms, ` +
      `queries ${cell('query', 2)}, parses ${cell('parse', 2)}, binds ${cell('bind', 2)}, round trips ${cell('roundTrips', 2)}` +
      (args.target === 'postgres'
        ? `; per published row (the commit's insert included): WAL ${cell('walBytesPerRow', 0)} B, ` +
          `index growth ${cell('indexBytesPerRow', 0)} B, heap growth ${cell('heapBytesPerRow', 0)} B, ` +
          `HOT ${cell('hotShare', 2)}, buffer hits ${cell('blksHitPerRow', 1)}`
        : '') +
      ` (median of ${mine.length})`,
  );
}

/** A thread's or process's run time so far (ns), from its schedstat. */
function runNs(path) {
  try {
    return Number(readFileSync(path, 'latin1').split(' ')[0]);
  } catch {
    return 0;
  }
}

async function measure({ root, variant, dir, target, sole, rows, rounds, lag }) {
  const require = createRequire(join(root, 'package.json'));
  require('reflect-metadata');
  const persistence = require('@tollgate/persistence');
  const pg = require('pg');
  const counts = { query: 0, parse: 0, bind: 0, sync: 0 };
  const Connection = pg.Connection.prototype;
  for (const [method, key] of [
    ['query', 'query'],
    ['parse', 'parse'],
    ['bind', 'bind'],
    ['sync', 'sync'],
  ]) {
    const original = Connection[method];
    Connection[method] = function (...rest) {
      counts[key]++;
      return original.apply(this, rest);
    };
  }
  const MIGRATIONS = [persistence.Migration20261122000000CreateOutboxMessages];
  const ENTITIES = [persistence.OutboxMessage];
  let url;
  let close = async () => undefined;
  let instance;
  let factory;
  if (target === 'pglite') {
    const instances = require(join(root, 'libs/persistence/dist/pglite/pglite-instances.js'));
    [instance] = await instances.startPgliteInstances([join(dir, 'platform')], { socket: false });
    const u = new URL(instance.url);
    u.searchParams.set('schema', 'billing');
    url = u.toString();
    close = () => instances.stopPgliteInstance(instance);
  } else {
    const adminUrl = process.env.DATABASE_URL;
    if (!adminUrl) throw new Error('DATABASE_URL: eval "$(bash scripts/infra.sh env postgres)"');
    factory = persistence.createTestDatabaseFactory({ adminUrl, migrations: MIGRATIONS, entities: ENTITIES });
    const database = await factory.create();
    url = database.url;
    close = () => factory.dispose();
  }
  const orm = await persistence.openDatabase({
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    embedded: target === 'pglite',
  });
  const connection = orm.em.getConnection();
  for (const statement of VARIANTS[variant]) await connection.execute(statement);
  const relay = new persistence.OutboxRelay({
    em: orm.em,
    bus: { publish: async () => undefined },
    logger: { warn: () => undefined },
    soleRelay: sole,
    onLag: () => undefined,
  });
  let n = 0;
  const commit = () =>
    orm.em.fork().transactional((em) =>
      persistence.enqueueOutbox(
        em,
        Array.from({ length: rows }, () => ({
          topic: 'billing.balance',
          key: String(++n % 50),
          value: { user_id: n % 50, quota: '123456', used_quota: '42', request_count: n },
          headers: { 'event-id': `e${n}`, 'x-correlation-id': `c${n}` },
        })),
      ),
    );
  // The server's backends of this database (PostgreSQL): read once the pool has opened its connections.
  const backendPids = async () =>
    target === 'postgres'
      ? (await connection.execute('select pid from pg_stat_activity where datname = current_database()')).map(
          ({ pid }) => pid,
        )
      : [];
  const stats = async () => {
    if (target !== 'postgres') return undefined;
    await new Promise((r) => setTimeout(r, 700));
    const [row] = await connection.execute(`select pg_current_wal_lsn()::text as lsn,
      (select n_tup_upd from pg_stat_user_tables where relname = 'outbox_messages')::int as upd,
      (select n_tup_hot_upd from pg_stat_user_tables where relname = 'outbox_messages')::int as hot,
      (select blks_hit from pg_stat_database where datname = current_database())::bigint as hits,
      (select sum(pg_relation_size(indexrelid))::bigint from pg_stat_user_indexes where relname = 'outbox_messages') as indexes,
      pg_relation_size('outbox_messages')::bigint as heap`);
    return row;
  };
  // Warm-up: the JIT, the pool's connections, the plan caches.
  for (let i = 0; i < 30; i++) {
    await commit();
    await relay.flushNow();
    if (lag) await relay.reportLag();
  }
  const pids = await backendPids();
  await connection.execute('select pg_stat_reset()').catch(() => undefined);
  const before = await stats();
  let threadNs = 0;
  let backendNs = 0;
  const sent = { query: 0, parse: 0, bind: 0, sync: 0 };
  const backendsNow = () => pids.reduce((sum, pid) => sum + runNs(`/proc/${pid}/schedstat`), 0);
  for (let i = 0; i < rounds; i++) {
    // PGlite has no autovacuum (the platform vacuums every 30 s): dead rows would make later rounds dearer.
    if (i % 100 === 99) await connection.execute('vacuum outbox_messages');
    if (rows > 0) await commit();
    const before = { ...counts };
    const t0 = runNs('/proc/thread-self/schedstat');
    const b0 = backendsNow();
    await relay.flushNow();
    if (lag) await relay.reportLag();
    threadNs += runNs('/proc/thread-self/schedstat') - t0;
    backendNs += backendsNow() - b0;
    for (const key of Object.keys(sent)) sent[key] += counts[key] - before[key];
  }
  const after = await stats();
  const perRound = {
    threadMs: threadNs / 1e6 / rounds,
    backendMs: backendNs / 1e6 / rounds,
    query: sent.query / rounds,
    parse: sent.parse / rounds,
    bind: sent.bind / rounds,
    roundTrips: (sent.query + sent.sync) / rounds,
  };
  if (before && after) {
    const published = rows * rounds;
    const lsn = (text) => {
      const [hi, lo] = text.split('/');
      return parseInt(hi, 16) * 2 ** 32 + parseInt(lo, 16);
    };
    perRound.walBytesPerRow = (lsn(after.lsn) - lsn(before.lsn)) / published;
    perRound.hotShare = (after.hot - before.hot) / Math.max(1, after.upd - before.upd);
    perRound.blksHitPerRow = (Number(after.hits) - Number(before.hits)) / published;
    perRound.indexBytesPerRow = (Number(after.indexes) - Number(before.indexes)) / published;
    perRound.heapBytesPerRow = (Number(after.heap) - Number(before.heap)) / published;
  }
  await orm.close(true);
  await close();
  return { perRound, backends: pids.length };
}
