#!/usr/bin/env node
// What the whole PostgreSQL server does per settled usage event while billing settles (issue 17),
// sampled beside a run of the billing scenario (or anything else that settles usage) on the same
// server: every second it reads, from /proc, the CPU of every child of the postmaster by what it is
// (a backend by its database, walwriter, checkpointer, background writer, autovacuum launcher and
// workers), pg_stat_wal (WAL records, full-page images, bytes), and, in the billing database,
// pg_stat_user_tables for the tables settlement writes (rows inserted, updated, of them HOT; dead
// rows; autovacuum and autoanalyze runs). On Ctrl-C (or after --seconds) it cuts the samples into
// activity segments (seconds in which usage_logs grew, gaps of --gap seconds or more between
// segments: the billing scenario's phases) and prints per settled event: CPU ms by process kind,
// WAL bytes, records and full-page images, index entries written (from each table's indexes and
// its non-HOT row versions), and which autovacuum or autoanalyze ran.
//
//   node bench/micro/billing-postgres-share.mjs --database-url postgres://…/postgres \
//     [--billing-database <name, default: the newest database whose name ends in "billing">] \
//     [--seconds N] [--gap 3] [--out samples.jsonl]
//
// Reading backends' titles needs the server on this machine (its processes in /proc).
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { databaseUrlOn } from '../lib/pg-micro.mjs';
import { childPids, readTimes } from '../lib/pg-backends.mjs';
import { CLOCK_TICKS } from '../lib/proc.mjs';
import pg from 'pg';

const { values: args } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    'billing-database': { type: 'string' },
    seconds: { type: 'string' },
    gap: { type: 'string', default: '3' },
    out: { type: 'string' },
  },
});
if (!args['database-url']) throw new Error('--database-url of the server (any database) is required');
const serverUrl = new URL(args['database-url']);
const TABLES = ['usage_logs', 'ledger_entries', 'usage_daily_stats', 'accounts', 'outbox_messages'];

/** A child's kind from its process title: `<database>` for a backend, else its role. */
function kindOf(pid) {
  try {
    const title = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
    const worker = /^postgres: autovacuum worker(?: (\S+))?/.exec(title);
    if (worker) return `autovacuum worker${worker[1] ? ` ${worker[1]}` : ''}`;
    const backend = /^postgres: \S+ (\S+) \S+\(\d+\)/.exec(title);
    if (backend) return `backend ${backend[1]}`;
    return title.replace(/^postgres: /, '').replace(/ .*$/, '') || '?';
  } catch {
    return '?';
  }
}

function children(postmaster) {
  const pids = childPids(postmaster);
  const out = new Map();
  for (const pid of pids) {
    const t = readTimes(pid);
    if (t) out.set(`${pid}:${t.start}`, { own: t.own, kind: kindOf(pid) });
  }
  return out;
}

const admin = new pg.Client({ connectionString: serverUrl.href });
await admin.connect();
const {
  rows: [{ pid: ownPid }],
} = await admin.query('select pg_backend_pid() as pid');
const postmaster = readTimes(ownPid)?.ppid;
if (!postmaster) throw new Error('PostgreSQL does not run on this machine');

let billing;
let billingName;
async function billingClient() {
  const { rows } = await admin.query(
    `select datname from pg_database where datname like '%billing' ${args['billing-database'] ? 'and datname = $1' : ''}
     order by oid desc limit 1`,
    args['billing-database'] ? [args['billing-database']] : [],
  );
  const name = rows[0]?.datname;
  if (name !== billingName) {
    await billing?.end().catch(() => undefined);
    billing = undefined;
    billingName = name;
    if (name) {
      billing = new pg.Client({ connectionString: databaseUrlOn(serverUrl, name) });
      billing.on('error', () => undefined);
      await billing.connect();
    }
  }
  return billing;
}

async function tableStats() {
  const db = await billingClient().catch(() => undefined);
  if (!db) return {};
  try {
    const { rows } = await db.query(
      `select t.relname, t.n_tup_ins::bigint as ins, t.n_tup_upd::bigint as upd, t.n_tup_hot_upd::bigint as hot,
         t.n_dead_tup::bigint as dead, t.autovacuum_count::bigint as av, t.autoanalyze_count::bigint as aa,
         (select count(*) from pg_index i where i.indrelid = t.relid)::int as indexes,
         (select count(*) from pg_index i where i.indrelid = t.relid and i.indpred is not null)::int as partial
       from pg_stat_user_tables t where t.relname = any($1)`,
      [TABLES],
    );
    return Object.fromEntries(
      rows.map((r) => [
        r.relname,
        {
          ins: +r.ins,
          upd: +r.upd,
          hot: +r.hot,
          dead: +r.dead,
          av: +r.av,
          aa: +r.aa,
          indexes: r.indexes,
          partial: r.partial,
        },
      ]),
    );
  } catch {
    return {};
  }
}

const samples = [];
let last = { master: readTimes(postmaster), kids: children(postmaster) };
async function sample() {
  const master = readTimes(postmaster);
  const kids = children(postmaster);
  const cpu = {};
  const add = (kind, ticks) => {
    if (ticks > 0) cpu[kind] = (cpu[kind] ?? 0) + (ticks * 1000) / CLOCK_TICKS;
  };
  add('postmaster', master.own - last.master.own);
  for (const [key, c] of kids) {
    if (key.startsWith(`${ownPid}:`) || (billing && key.startsWith(`${billing.processID}:`))) continue;
    add(c.kind, c.own - (last.kids.get(key)?.own ?? 0));
  }
  // Children reaped since: their whole life went to the postmaster's cutime; less what was seen of them.
  const ended = [...last.kids].filter(([key]) => !kids.has(key));
  const tail = master.children - last.master.children - ended.reduce((sum, [, c]) => sum + c.own, 0);
  const endedKinds = new Set(ended.map(([, c]) => c.kind));
  add(endedKinds.size === 1 ? `${[...endedKinds][0]} (ended)` : 'ended, unattributed', tail);
  last = { master, kids };
  const {
    rows: [wal],
  } = await admin.query(
    'select wal_records::bigint as records, wal_fpi::bigint as fpi, wal_bytes::bigint as bytes from pg_stat_wal',
  );
  samples.push({
    at: Date.now(),
    cpu,
    wal: { records: +wal.records, fpi: +wal.fpi, bytes: +wal.bytes },
    database: billingName,
    tables: await tableStats(),
  });
}

const diff = (a = {}, b = {}) => Object.fromEntries(Object.keys(b).map((k) => [k, b[k] - (a[k] ?? 0)]));

function summarize() {
  const gap = Number(args.gap);
  const segments = [];
  let current;
  let idle = 0;
  for (let i = 1; i < samples.length; i++) {
    const grew =
      samples[i].database === samples[i - 1].database &&
      (samples[i].tables.usage_logs?.ins ?? 0) > (samples[i - 1].tables.usage_logs?.ins ?? 0);
    if (grew) {
      if (!current) segments.push((current = { from: i - 1, to: i }));
      else current.to = i;
      idle = 0;
    } else if (current && ++idle >= gap) current = undefined;
  }
  for (const { from, to } of segments) {
    const a = samples[from];
    const b = samples[to];
    const events = b.tables.usage_logs.ins - a.tables.usage_logs.ins;
    const cpu = {};
    for (const s of samples.slice(from + 1, to + 1))
      for (const [kind, ms] of Object.entries(s.cpu)) cpu[kind] = (cpu[kind] ?? 0) + ms;
    const wal = diff(a.wal, b.wal);
    const tables = {};
    let indexEntries = 0;
    for (const name of TABLES) {
      const d = diff(a.tables[name], b.tables[name]);
      if (!b.tables[name]) continue;
      // Every inserted row and every non-HOT row version adds an entry to each index (a partial index
      // only for rows its predicate takes: counted as if it took none of settlement's usage rows).
      const full = b.tables[name].indexes - b.tables[name].partial;
      const entries = (d.ins + d.upd - d.hot) * full;
      indexEntries += entries;
      tables[name] = {
        inserted: d.ins,
        updated: d.upd,
        hotShare: d.upd ? +(d.hot / d.upd).toFixed(3) : null,
        indexEntriesPerEvent: +(entries / events).toFixed(2),
        deadAtEnd: b.tables[name].dead,
        autovacuum: d.av,
        autoanalyze: d.aa,
      };
    }
    const seconds = (b.at - a.at) / 1000;
    const serverMs = Object.values(cpu).reduce((s, v) => s + v, 0);
    console.log(
      JSON.stringify({
        database: b.database,
        seconds,
        events,
        perSecond: Math.round(events / seconds),
        cpuMsPerEvent: {
          server: +(serverMs / events).toFixed(4),
          ...Object.fromEntries(
            Object.entries(cpu)
              .sort(([, x], [, y]) => y - x)
              .map(([kind, ms]) => [kind, +(ms / events).toFixed(4)]),
          ),
        },
        walPerEvent: {
          bytes: +(wal.bytes / events).toFixed(1),
          records: +(wal.records / events).toFixed(2),
          fullPageImages: +(wal.fpi / events).toFixed(3),
        },
        indexEntriesPerEvent: +(indexEntries / events).toFixed(2),
        tables,
      }),
    );
  }
}

let timer;
let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  clearInterval(timer);
  if (args.out) writeFileSync(args.out, samples.map((s) => JSON.stringify(s)).join('\n') + '\n');
  summarize();
  await billing?.end().catch(() => undefined);
  await admin.end();
}
let busy = false;
timer = setInterval(() => {
  if (busy || stopping) return;
  busy = true;
  sample()
    .catch((error) => console.error(`sample: ${error.message}`))
    .finally(() => (busy = false));
}, 1000);
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
if (args.seconds) setTimeout(stop, Number(args.seconds) * 1000);
