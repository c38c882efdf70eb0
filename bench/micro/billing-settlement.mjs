#!/usr/bin/env node
// Billing's settlement statement alone (issue 17): CPU per usage event of one PostgreSQL backend
// running it, and of this process building and sending its parameters, in interleaved rounds, for
// each variant of how the batch travels and each variant of the schema:
//   shape  jsonb   one jsonb parameter read by jsonb_to_recordset (what billing did before H36)
//          json    the same text as json, read by json_to_recordset (no jsonb tree is built)
//          events  the decoded events as json (billing since H40), the Moscow day computed by the statement
//          arrays  one typed array per column, read by unnest (no JSON at all)
//   schema base    the database as given
//          partial ledger_entries' (created_at) and (user_id, created_at) indexes only on rows that
//                  are not usage entries (the only query they serve skips usage entries)
//          eventkey  usage_logs keyed by event_id (its unique index the primary key), no index on id
//          fillfactor  accounts and usage_daily_stats at fillfactor 50 (room for HOT updates)
// Besides CPU and buffer hits per event it prints WAL bytes and records per event (pg_stat_wal: the
// whole server's, so run it on one nothing else writes to); --explain adds WAL to the plan's counts.
// Every batch runs in a transaction that is rolled back, so each round starts from the same tables.
// The database given is cloned (create database … template) once per schema variant; give one that
// billing migrated and used, with accounts (a database left by a billing bench run).
//
//   node bench/micro/billing-settlement.mjs --database-url postgres://…/billing_db \
//     [--shapes jsonb,json,arrays,events] [--schemas base,partial] [--batch 5000] [--batches 10] [--rounds 3]
//     [--dist <another build's apps/billing/dist>]
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { databaseUrlOn, processCpuMs, withClient } from '../lib/pg-micro.mjs';

const { values: args } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    shapes: { type: 'string', default: 'json,events' },
    schemas: { type: 'string', default: 'base' },
    batch: { type: 'string', default: '5000' },
    batches: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    users: { type: 'string', default: '1000' },
    explain: { type: 'boolean', default: false },
    dist: { type: 'string', default: fileURLToPath(new URL('../../apps/billing/dist', import.meta.url)) },
  },
});
if (!args['database-url']) throw new Error('--database-url of a migrated billing database is required');
const source = new URL(args['database-url']);
const databaseUrl = (name) => databaseUrlOn(source, name);
const batchSize = Number(args.batch);
const batches = Number(args.batches);

const COLUMNS = [
  ['event_id', 'uuid'],
  ['created_at', 'bigint'],
  ['day', 'date'],
  ['user_id', 'integer'],
  ['token_id', 'integer'],
  ['token_name', 'text'],
  ['channel_id', 'integer'],
  ['model', 'text'],
  ['upstream_model', 'text'],
  ['prompt_tokens', 'integer'],
  ['completion_tokens', 'integer'],
  ['cached_tokens', 'integer'],
  ['cache_write_tokens', 'integer'],
  ['cache_write_1h_tokens', 'integer'],
  ['quota', 'bigint'],
  ['latency_ms', 'integer'],
  ['ttft_ms', 'integer'],
  ['is_stream', 'boolean'],
  ['status', 'text'],
  ['group', 'text'],
  ['request_id', 'text'],
  ['response_id', 'text'],
  ['finish_reason', 'text'],
];
const recordType = COLUMNS.map(([name, type]) => `"${name}" ${type}`).join(', ');
const eventRecordType = COLUMNS.filter(([name]) => name !== 'day')
  .map(([name, type]) => `"${name}" ${type}`)
  .join(', ');

/** A row as the usage consumer's schema decodes its event: `v` first, no day, no null optional fields. */
function asDecodedEvent({ day: _day, response_id, finish_reason, ...row }) {
  return {
    v: 1,
    ...row,
    ...(response_id === null ? {} : { response_id }),
    ...(finish_reason === null ? {} : { finish_reason }),
  };
}

/** The "incoming" rows and how the batch becomes the statement's parameters, per shape. */
const SHAPES = {
  jsonb: {
    incoming: `select * from jsonb_to_recordset($1::jsonb) as x(${recordType})`,
    params: (rows) => [JSON.stringify(rows)],
  },
  json: {
    incoming: `select * from json_to_recordset($1::json) as x(${recordType})`,
    params: (rows) => [JSON.stringify(rows)],
  },
  // What billing sends since H40: the decoded events as they are (no day; keys it does not name), the
  // Moscow day worked out by the statement.
  events: {
    incoming: `select x.*, date '1970-01-01' + ((x."created_at" + 10800) / 86400)::integer as "day"
      from json_to_recordset($1::json) as x(${eventRecordType})`,
    // Built before the clock, as the consumer's decoder builds them before settlement.
    prepare: (rows) => rows.map(asDecodedEvent),
    params: (rows) => [JSON.stringify(rows)],
  },
  arrays: {
    incoming: `select * from unnest(${COLUMNS.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')}) as x(${COLUMNS.map(([name]) => `"${name}"`).join(', ')})`,
    params: (rows) => COLUMNS.map(([name]) => rows.map((row) => row[name])),
  },
};

/**
 * The statement as billing's dist exports it (`--dist`: another build's apps/billing/dist, to compare
 * two versions of it on the same database), with its "incoming" rows swapped for the shape's, and the
 * parameters after the batch (since H46: billing.balance's topic and the outbox rows' headers).
 */
function settlementSql(shape) {
  const distUrl = new URL('usage/usage-settlement.repository.js', `file://${resolve(args.dist)}/`);
  const { SETTLE_SQL: statement } = createRequire(distUrl)(fileURLToPath(distUrl));
  if (!statement) throw new Error(`SETTLE_SQL not exported by ${distUrl} (node scripts/build.mjs)`);
  // A function, not a string: the shapes' `$1` would read as a capture group.
  let sql = statement.replace(
    /with "incoming" as \([\s\S]*?\n\), "logged"/,
    () => `with "incoming" as (${SHAPES[shape].incoming}\n), "logged"`,
  );
  const batchParams = shape === 'arrays' ? COLUMNS.length : 1;
  const extra = [];
  sql = sql.replace(/\?/g, () => {
    extra.push(extra.length === 0 ? 'billing.balance' : '{}');
    return `$${batchParams + extra.length}`;
  });
  return { sql, extra };
}

const SCHEMAS = {
  base: [],
  partial: [
    'drop index "ledger_entries_created_at_index"',
    'drop index "ledger_entries_user_id_created_at_index"',
    `create index "ledger_entries_created_at_index" on "ledger_entries" ("created_at") where "kind" <> 'usage'`,
    `create index "ledger_entries_user_id_created_at_index" on "ledger_entries" ("user_id", "created_at") where "kind" <> 'usage'`,
  ],
  // The usage log keyed by its event id: the unique index on event_id becomes the primary key, the
  // index on id goes (one index entry a usage row fewer).
  eventkey: [
    'alter table "usage_logs" drop constraint "usage_logs_pkey"',
    'alter table "usage_logs" drop constraint "usage_logs_event_id_key"',
    'alter table "usage_logs" add constraint "usage_logs_pkey" primary key ("event_id")',
  ],
  // Room on every page of the per-user rows a batch updates, for HOT updates (no new index entries).
  fillfactor: [
    'alter table "accounts" set (fillfactor = 50)',
    'alter table "usage_daily_stats" set (fillfactor = 50)',
    'vacuum full "accounts"',
    'vacuum full "usage_daily_stats"',
  ],
};

function usageRows(userIds) {
  const created = Math.floor(Date.now() / 1000);
  return Array.from({ length: batchSize }, (_, i) => ({
    event_id: randomUUID(),
    created_at: created,
    day: new Date((created + 3 * 3600) * 1000).toISOString().slice(0, 10),
    user_id: userIds[i % userIds.length],
    token_id: 7,
    token_name: 'bench key',
    channel_id: 3,
    model: 'bench-gpt',
    upstream_model: 'gpt-4o-mini',
    prompt_tokens: 12,
    completion_tokens: 16,
    cached_tokens: 0,
    cache_write_tokens: 0,
    cache_write_1h_tokens: 0,
    quota: 6,
    latency_ms: 1,
    ttft_ms: null,
    is_stream: false,
    status: 'success',
    group: 'default',
    request_id: `bench-${randomUUID()}`,
    response_id: null,
    finish_reason: null,
  }));
}

const sourceName = source.pathname.slice(1);
const clones = {};
await withClient(databaseUrl('postgres'), async (admin) => {
  for (const schema of args.schemas.split(',')) {
    const name = `${sourceName}_micro_${schema}`;
    await admin.query(`drop database if exists "${name}"`);
    await admin.query(`create database "${name}" template "${sourceName}"`);
    await withClient(databaseUrl(name), async (db) => {
      for (const ddl of SCHEMAS[schema]) await db.query(ddl);
      await db.query('vacuum analyze');
    });
    clones[schema] = name;
  }
});

/**
 * The clone's shared-buffer hits so far, this backend's own included: it flushes its counters when it
 * next goes idle once asked to (PostgreSQL 15), i.e. after the `select 1`.
 */
/** The cluster's WAL so far (pg_stat_wal: every backend's, so run this on a server nothing else writes to). */
async function walSoFar(db) {
  const { rows } = await db.query(
    'select wal_records::bigint as records, wal_bytes::bigint as bytes from pg_stat_wal',
  );
  return { records: Number(rows[0].records), bytes: Number(rows[0].bytes) };
}

async function blocksHit(db) {
  await db.query('select pg_stat_force_next_flush()');
  await db.query('select 1');
  const { rows } = await db.query(
    'select blks_hit::bigint as hit from pg_stat_database where datname = current_database()',
  );
  return Number(rows[0].hit);
}

const results = [];
try {
  for (let round = 0; round < Number(args.rounds); round++) {
    for (const schema of Object.keys(clones)) {
      for (const shape of args.shapes.split(',')) {
        await withClient(databaseUrl(clones[schema]), async (db) => {
          const { rows: users } = await db.query('select user_id from accounts order by user_id limit $1', [
            Number(args.users),
          ]);
          const userIds = users.map((row) => row.user_id);
          const {
            rows: [{ pid }],
          } = await db.query('select pg_backend_pid() as pid');
          const { sql, extra } = settlementSql(shape);
          const prepare = SHAPES[shape].prepare ?? ((rows) => rows);
          const work = Array.from({ length: batches + 1 }, () => prepare(usageRows(userIds)));
          const run = async (rows) => {
            await db.query('begin');
            const result = await db.query(sql, [...SHAPES[shape].params(rows), ...extra]);
            await db.query('rollback');
            // `settled` since H46, `logged` before.
            const { settled = result.rows[0].logged } = result.rows[0];
            if (settled !== rows.length) throw new Error('not every event was settled');
          };
          await run(work[0]); // warm-up: plan cache, buffers
          const hitsBefore = await blocksHit(db);
          const walBefore = await walSoFar(db);
          const pgBefore = processCpuMs(pid);
          const ownBefore = process.cpuUsage();
          for (const rows of work.slice(1)) await run(rows);
          const own = process.cpuUsage(ownBefore);
          const pgMs = processCpuMs(pid) - pgBefore;
          const hits = (await blocksHit(db)) - hitsBefore;
          const walAfter = await walSoFar(db);
          const events = batches * batchSize;
          const result = {
            round,
            schema,
            shape,
            postgresMsPerEvent: pgMs / events,
            // Shared-buffer hits: what the machine's load does not change.
            hitsPerEvent: hits / events,
            clientMsPerEvent: (own.user + own.system) / 1000 / events,
            walBytesPerEvent: (walAfter.bytes - walBefore.bytes) / events,
            walRecordsPerEvent: (walAfter.records - walBefore.records) / events,
          };
          results.push(result);
          console.log(JSON.stringify(result));
          if (args.explain && round === 0) {
            await db.query('begin');
            const { rows } = await db.query(`explain (analyze, buffers, wal) ${sql}`, [
              ...SHAPES[shape].params(prepare(usageRows(userIds))),
              ...extra,
            ]);
            await db.query('rollback');
            console.log(rows.map((row) => row['QUERY PLAN']).join('\n'));
          }
        });
      }
    }
  }
} finally {
  await withClient(databaseUrl('postgres'), async (admin) => {
    for (const name of Object.values(clones)) await admin.query(`drop database if exists "${name}"`);
  });
}

const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
for (const schema of Object.keys(clones)) {
  for (const shape of args.shapes.split(',')) {
    const mine = results.filter((r) => r.schema === schema && r.shape === shape);
    console.log(
      `${schema.padEnd(8)} ${shape.padEnd(7)} PostgreSQL ${median(mine.map((r) => r.postgresMsPerEvent)).toFixed(4)} ms/event, ${median(mine.map((r) => r.hitsPerEvent)).toFixed(1)} buffer hits/event, WAL ${median(mine.map((r) => r.walBytesPerEvent)).toFixed(0)} bytes and ${median(mine.map((r) => r.walRecordsPerEvent)).toFixed(1)} records/event, this process ${median(mine.map((r) => r.clientMsPerEvent)).toFixed(4)} ms/event (median of ${mine.length})`,
    );
  }
}
