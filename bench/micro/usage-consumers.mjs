#!/usr/bin/env node
// auth's token-usage, admin's channel-usage and billing's settlement consumers alone (issue 17, billing
// since H46): CPU per usage event of
// this process and of the PostgreSQL backends of each service's database, in interleaved rounds,
// for each variant of the two services' compiled code.
//
// Each batch goes through what the service runs after kafkajs has fetched it: each message as kafkajs
// hands it over (key, value and relay's two correlation headers as Buffers, offset and timestamp as
// strings) read by the variant's own libs/events as KafkaSubscription reads it (decodeKafkaMessage: key,
// headers and the value's UTF-8 text decoded, the value parsed; then decodeRecord with the handler's own
// @BusEvent schema through libs/runtime's decodeWithSchema, the schema read from the compiled consumer's
// metadata), then the compiled consumer's handler with its repository on a real database. Besides the
// CPU, the time this process spent in garbage collection per event is printed (`gc`, from
// PerformanceObserver's gc entries).
//
// The variant listed first tends to read more CPU and GC an event than the second (h118: admin +0.3 µs
// with the same build in both, bench/ANALYSIS.md): to compare a change of a few tenths of a µs, run both
// orders. The outbox relay is not run:
// its `nudge()` is a no-op here (auth enqueues one identity.token row per key changed per batch).
//
// A variant is a directory holding `auth/dist`, `admin/dist` and `billing/dist` (a copy of the apps' dist taken
// before a change; `apps` is the working tree's). Each variant gets fresh databases, migrated by its
// own migrations, with `--keys` API keys and `--channels` channels the events are charged to.
//
// Each variant opens its databases with its own @tollgate/persistence (the one its dist resolves), so
// a change of how the databases are opened (queryRows' named statements, H66) is the variant's too.
// `--events` is one count for every batch size or one per size. At the end, after the connections
// closed (a backend's statistics are flushed when it exits), each table's rows inserted, updated and
// HOT-updated over the whole run are printed per variant and service.
//
// --explain N: instead of timing the consumers, capture each consumer's batch statement at each batch
// size (the text and parameters its repository sends) and run it N times on its own connection with
// fresh time-ordered event ids each time (committed, as the consumer's), as `EXPLAIN (ANALYZE, SUMMARY, BUFFERS, WAL)`,
// taking turns run by run: unnamed (parsed and planned each run), prepared (SQL PREPARE; PostgreSQL's
// generic plan after five runs), and prepared with plan_cache_mode force_custom_plan and
// force_generic_plan. Prints planning and execution ms, shared buffer hits and dirtied blocks per
// event, WAL records and bytes per event, and how many generic and custom plans the prepared statement
// ran (medians over the runs after the first; for the prepared one, after the fifth); --plans adds one
// run's plan as text, unnamed, with every node's buffers and WAL.
//
//   node bench/micro/usage-consumers.mjs --database-url postgres://…/postgres \
//     --variants before=/tmp/usage-before,after=apps [--batch 30,300,3000] [--events 30000] [--rounds 5]
//     [--only auth,admin,billing] [--explain 12 [--plans]]
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { databaseUrlOn, processCpuMs, withClient } from '../lib/pg-micro.mjs';
import { benchUsageEvent, usageConsumerOf } from '../lib/usage-consumer.mjs';
import pg from 'pg';
import { v7 as timeOrderedUuid } from 'uuid';

const { values: args } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    variants: { type: 'string', default: 'head=apps' },
    batch: { type: 'string', default: '30,300,3000' },
    events: { type: 'string', default: '30000' },
    rounds: { type: 'string', default: '3' },
    keys: { type: 'string', default: '10' },
    channels: { type: 'string', default: '5' },
    users: { type: 'string', default: '1000' },
    only: { type: 'string', default: 'auth,admin' },
    debug: { type: 'boolean', default: false },
    explain: { type: 'string' },
    plans: { type: 'boolean', default: false },
  },
});
if (!args['database-url']) throw new Error('--database-url of a PostgreSQL server is required');
const databaseUrl = (name) => databaseUrlOn(args['database-url'], name);
const root = new URL('../..', import.meta.url).pathname;
const require = createRequire(import.meta.url);
require('reflect-metadata');
const batchSizes = args.batch.split(',').map(Number);
const eventCounts = args.events.split(',').map(Number);
const eventsAt = (size) => eventCounts[batchSizes.indexOf(size)] ?? eventCounts[0];
const services = args.only.split(',');

async function backends(admin, database) {
  const { rows } = await admin.query('select pid from pg_stat_activity where datname = $1', [database]);
  return rows.map((row) => row.pid);
}

/** The compiled migrations of one app, in file-name (= written) order. */
function migrations(load, dist) {
  return (
    readdirSync(resolve(dist, 'migrations'))
      .filter((file) => file.endsWith('.migration.js'))
      // By name without the suffix: `20261126-affiliate` before `20261126-affiliate-reversals`.
      .sort((a, b) => (a.slice(0, -'.migration.js'.length) < b.slice(0, -'.migration.js'.length) ? -1 : 1))
      .flatMap((file) => Object.values(load(`./migrations/${file}`)))
      .filter((value) => typeof value === 'function' && typeof value.prototype?.up === 'function')
  );
}

/** The @BusEvent options of a compiled consumer's handler (Nest keeps them as pattern extras). */
function busEventOptions(handler) {
  const extras = Reflect.getMetadata('microservices:pattern_extras', handler);
  const key = Object.getOwnPropertySymbols(extras).find((symbol) => symbol.description === 'BusEventOptions');
  return extras[key];
}

/** One service of one variant: its database, its consumer, and how to seed what events charge. */
async function openService(variant, dir, service, name) {
  const dist = resolve(root, dir, service, 'dist');
  const load = (path) => require(resolve(dist, path));
  // The variant's own libraries, as its compiled service resolves them.
  const variantRequire = createRequire(resolve(dist, 'index.js'));
  const { openDatabase, Migration20261122000000CreateOutboxMessages, OutboxMessage } =
    variantRequire('@tollgate/persistence');
  const { decodeWithSchema } = variantRequire('@tollgate/runtime');
  await withClient(databaseUrl('postgres'), async (admin) => {
    await admin.query(`drop database if exists "${name}"`);
    await admin.query(`create database "${name}"`);
  });
  const entities = {
    auth: () => [
      load('./users/user.entity.js').User,
      load('./tokens/token.entity.js').Token,
      load('./token-usage/applied-usage-event.entity.js').AppliedUsageEvent,
    ],
    admin: () => [load('./channels/channel.entity.js').Channel],
    // The settlement writes through SQL alone; accounts are opened by it for users it has not seen.
    billing: () => [load('./accounts/account.entity.js').Account],
  }[service]();
  const orm = await openDatabase({
    url: databaseUrl(name),
    entities: [OutboxMessage, ...entities],
    migrations: [Migration20261122000000CreateOutboxMessages, ...migrations(load, dist)],
    embedded: false,
    poolSize: 2,
    debug: args.debug,
  });
  const { consumer, handler } = usageConsumerOf(service, orm.em, load);
  const ids = await withClient(databaseUrl(name), async (db) => {
    if (service === 'billing') return [1];
    if (service === 'auth') {
      const {
        rows: [user],
      } = await db.query(`insert into users (username, display_name) values ('micro', 'micro') returning id`);
      const { rows } = await db.query(
        `insert into tokens (user_id, name, key_hash, key_encrypted, key_masked, remain_quota, created_at, updated_at)
         select $1, 'micro ' || i, md5(i::text), 'x', 'sk-…', 1000000000000, now(), now()
         from generate_series(1, $2) i returning id`,
        [user.id, Number(args.keys)],
      );
      return rows.map((row) => row.id);
    }
    const { rows } = await db.query(
      `insert into channels (type, name, key_encrypted, key_masked, created_at, updated_at)
       select 1, 'micro ' || i, 'x', 'sk-…', now(), now() from generate_series(1, $1) i returning id`,
      [Number(args.channels)],
    );
    return rows.map((row) => row.id);
  });
  const decode = decodeWithSchema(busEventOptions(handler).schema);
  return { name, orm, consumer, handler, ids, decode, read: kafkaReader(variantRequire) };
}

/** How the variant's libs/events turns a fetched message into a record for the handler (KafkaSubscription's). */
function kafkaReader(variantRequire) {
  const events = dirname(variantRequire.resolve('@tollgate/events'));
  const codec = variantRequire(resolve(events, 'kafka/kafka-codec.js'));
  const { decodeRecord } = variantRequire(resolve(events, 'shared/deliver-batch.js'));
  return (topic, partition, message, decode) => {
    const decoded = codec.decodeKafkaMessage(topic, partition, message);
    if (!decoded.ok) return { ok: false, record: decoded.raw, error: decoded.error };
    return decodeRecord(decoded.record, decode);
  };
}

/**
 * A batch as kafkajs hands it over: each event's JSON as a Buffer, keyed by its user, with the headers
 * relay's events carry (CorrelatedEventBus's request and correlation ids).
 */
function encodedBatch(size, keys, channels) {
  const created = Math.floor(Date.now() / 1000);
  return Array.from({ length: size }, (_, i) => {
    const userId = 1 + (i % Number(args.users));
    const requestId = Buffer.from(`req-${randomUUID()}`);
    return {
      key: Buffer.from(String(userId)),
      value: Buffer.from(
        JSON.stringify(
          benchUsageEvent({
            userId,
            tokenId: keys[i % keys.length],
            channelId: channels[i % channels.length],
            createdAt: created + (i % 7),
          }),
        ),
      ),
      headers: { 'x-request-id': requestId, 'x-correlation-id': requestId },
      offset: String(i),
      timestamp: String(Date.now()),
      attributes: 0,
    };
  });
}

/** What the service does with a fetched batch: read each message (decoded, parsed, checked), hand over the batch. */
async function consume(service, messages) {
  const events = messages.map((message) => {
    const read = service.read('usage.recorded', 0, message, service.decode);
    if (!read.ok) throw read.error;
    return read.record;
  });
  await service.handler.call(service.consumer, events);
}

/** Milliseconds this process has spent in garbage collection so far. */
let gcMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs += entry.duration;
}).observe({ entryTypes: ['gc'] });

const variants = args.variants.split(',').map((pair) => pair.split('='));
const opened = {};
const run = Date.now().toString(36);
for (const [variant, dir] of variants) {
  for (const service of services) {
    opened[`${variant}/${service}`] = await openService(
      variant,
      dir,
      service,
      `h37_${variant}_${service}_${run}`,
    );
  }
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
/** How many warm-up batches: PostgreSQL keeps a named statement's generic plan from the sixth run. */
const WARM_UP_BATCHES = 6;

/** The batch statement (text and parameters) the service's repository sends for one batch. */
async function captureStatement(service, size, ids, channels) {
  const proto = pg.Client.prototype;
  const query = proto.query;
  let captured;
  proto.query = function (config, ...rest) {
    if (typeof config?.text === 'string' && config.text.includes('json_to_recordset')) {
      captured = { text: config.text, values: config.values };
    }
    return query.call(this, config, ...rest);
  };
  try {
    await consume(service, encodedBatch(size, ids, channels));
  } finally {
    proto.query = query;
  }
  if (!captured) throw new Error('no batch statement was sent');
  return captured;
}

/**
 * A statement's totals from its EXPLAIN (FORMAT JSON): the top node's counters, which include every CTE
 * it reads, plus each data-modifying CTE nothing reads (PostgreSQL runs those after the top node).
 */
function totals(explained) {
  const root = explained.Plan;
  const scanned = new Set();
  const walk = (node) => {
    if (node['CTE Name']) scanned.add(node['CTE Name']);
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(root);
  const nodes = [
    root,
    ...(root.Plans ?? []).filter(
      (node) => node['Subplan Name']?.startsWith('CTE ') && !scanned.has(node['Subplan Name'].slice(4)),
    ),
  ];
  const sum = (key) => nodes.reduce((total, node) => total + (node[key] ?? 0), 0);
  return {
    planningMs: explained['Planning Time'],
    executionMs: explained['Execution Time'],
    planningHits: explained.Planning?.['Shared Hit Blocks'] ?? 0,
    hits: sum('Shared Hit Blocks'),
    dirtied: sum('Shared Dirtied Blocks'),
    walRecords: sum('WAL Records'),
    walBytes: sum('WAL Bytes'),
  };
}

/** EXPLAIN ANALYZE of each consumer's statement, unnamed and prepared, at each batch size (--explain). */
async function explainStatements(runs) {
  for (const size of batchSizes) {
    for (const [variant] of variants) {
      for (const serviceName of services) {
        const service = opened[`${variant}/${serviceName}`];
        const ids = serviceName === 'auth' ? service.ids : [1];
        const channels = serviceName === 'admin' ? service.ids : [1];
        const { text, values } = await captureStatement(service, size, ids, channels);
        const fresh = () => [values[0].replace(UUID, () => timeOrderedUuid()), ...values.slice(1)];
        await withClient(databaseUrl(service.name), async (db) => {
          // Committed, as the consumer's are (rolled back, each run's rows would stay as dead index
          // entries that every later run checks), and the modes take turns run by run.
          const once = async (sql, params) => {
            const { rows } = await db.query(
              `explain (analyze, summary, buffers, wal, format json) ${sql}`,
              params,
            );
            return totals(rows[0]['QUERY PLAN'][0]);
          };
          // EXECUTE takes no bound parameters: literals, whose input conversion (json_in of the batch)
          // EXPLAIN then counts as planning time.
          const execute = (name) =>
            `execute ${name}(${fresh()
              .map((value) => db.escapeLiteral(String(value)))
              .join(', ')})`;
          await db.query(`prepare h66_auto as ${text}`);
          await db.query(`prepare h66_forced as ${text}`);
          const modes = { unnamed: [], prepared: [], force_custom_plan: [], force_generic_plan: [] };
          for (let i = 0; i < runs; i++) {
            modes.unnamed.push(await once(text, fresh()));
            modes.prepared.push(await once(execute('h66_auto')));
            for (const mode of ['force_custom_plan', 'force_generic_plan']) {
              await db.query(`set plan_cache_mode = ${mode}`);
              modes[mode].push(await once(execute('h66_forced')));
              await db.query('reset plan_cache_mode');
            }
          }
          const [{ generic_plans: generic, custom_plans: custom }] = (
            await db.query(
              "select generic_plans, custom_plans from pg_prepared_statements where name = 'h66_auto'",
            )
          ).rows;
          await db.query('deallocate all');
          if (args.plans) {
            const { rows } = await db.query(`explain (analyze, buffers, wal, costs off) ${text}`, fresh());
            console.log(
              `-- ${variant} ${serviceName}, ${size} events a batch\n${rows.map((row) => row['QUERY PLAN']).join('\n')}`,
            );
          }
          for (const [mode, all] of Object.entries(modes)) {
            // The prepared statement's first five runs are custom plans: its figures are the runs after.
            const kept = mode === 'prepared' ? all.slice(WARM_UP_BATCHES - 1) : all.slice(1);
            const med = (key) => median(kept.map((run) => run[key]));
            const line = {
              explain: mode,
              size,
              variant,
              service: serviceName,
              planningMs: +med('planningMs').toFixed(3),
              executionMs: +med('executionMs').toFixed(3),
              planningHits: med('planningHits'),
              hitsPerEvent: +(med('hits') / size).toFixed(2),
              dirtiedPerEvent: +(med('dirtied') / size).toFixed(3),
              walRecordsPerEvent: +(med('walRecords') / size).toFixed(2),
              walBytesPerEvent: Math.round(med('walBytes') / size),
              ...(mode === 'prepared' ? { genericPlans: Number(generic), customPlans: Number(custom) } : {}),
            };
            console.log(JSON.stringify(line));
          }
        });
      }
    }
  }
}

/** Rows inserted, updated and HOT-updated per table of each database over the run (read after the backends exited). */
async function tableCounts() {
  await new Promise((done) => setTimeout(done, 500));
  for (const service of Object.values(opened)) {
    await withClient(databaseUrl(service.name), async (db) => {
      const { rows } = await db.query(
        `select relname as table, n_tup_ins::int as inserted, n_tup_upd::int as updated, n_tup_hot_upd::int as hot
         from pg_stat_user_tables where n_tup_ins + n_tup_upd > 0 and relname <> 'mikro_orm_migrations' order by relname`,
      );
      for (const row of rows) {
        const share = row.updated > 0 ? ` (${((100 * row.hot) / row.updated).toFixed(0)} % HOT)` : '';
        console.log(
          `${service.name} ${row.table}: inserted ${row.inserted}, updated ${row.updated}, HOT ${row.hot}${share}`,
        );
      }
    });
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const results = [];
try {
  await withClient(databaseUrl('postgres'), async (admin) => {
    if (args.explain) {
      await explainStatements(Number(args.explain));
      return;
    }
    for (let round = 0; round < Number(args.rounds); round++) {
      for (const size of batchSizes) {
        // Interleaved, and the order alternated from round to round.
        for (const [variant] of round % 2 === 0 ? variants : [...variants].reverse()) {
          for (const serviceName of services) {
            const service = opened[`${variant}/${serviceName}`];
            const ids = serviceName === 'auth' ? service.ids : [1];
            const channels = serviceName === 'admin' ? service.ids : [1];
            const batches = Math.ceil(eventsAt(size) / size);
            const work = Array.from({ length: batches + WARM_UP_BATCHES }, () =>
              encodedBatch(size, ids, channels),
            );
            // Warm-up: connections, and a named statement's plan kept.
            for (const batch of work.slice(0, WARM_UP_BATCHES)) await consume(service, batch);
            const before = new Map(
              (await backends(admin, service.name)).map((pid) => [pid, processCpuMs(pid)]),
            );
            const gcBefore = gcMs;
            const own = process.cpuUsage();
            for (const batch of work.slice(WARM_UP_BATCHES)) await consume(service, batch);
            const ownUsed = process.cpuUsage(own);
            // gc entries are delivered asynchronously: let the last ones in.
            await new Promise((resolve) => setImmediate(resolve));
            const gcUsed = gcMs - gcBefore;
            let pgMs = 0;
            for (const pid of await backends(admin, service.name))
              pgMs += processCpuMs(pid) - (before.get(pid) ?? 0);
            const events = batches * size;
            const result = {
              round,
              size,
              variant,
              service: serviceName,
              nodeMsPerEvent: (ownUsed.user + ownUsed.system) / 1000 / events,
              gcMsPerEvent: gcUsed / events,
              postgresMsPerEvent: pgMs / events,
            };
            results.push(result);
            console.log(JSON.stringify(result));
          }
        }
      }
    }
    // What every variant's tables hold: each event counted once, every key and channel exact.
    for (const [variant] of variants) {
      for (const serviceName of services) {
        const service = opened[`${variant}/${serviceName}`];
        const sql = {
          auth: `select (select count(*) from applied_usage_events)::int as events,
                        (select sum(used_quota) from tokens)::text as quota,
                        (select count(*) from outbox_messages)::int as outbox`,
          admin: `select (select count(*) from channel_usage_events)::int as events,
                         (select sum(used_quota) from channels)::text as quota`,
          billing: `select (select count(*) from usage_logs)::int as events,
                           (select sum(used_quota) from accounts)::text as quota,
                           (select sum(amount) from ledger_entries)::text as ledger,
                           (select count(*) from outbox_messages)::int as outbox`,
        }[serviceName];
        const [row] = await service.orm.em.getConnection().execute(sql);
        console.log(JSON.stringify({ variant, service: serviceName, ...row }));
      }
    }
  });
} finally {
  for (const service of Object.values(opened)) await service.orm.close(true);
  if (!args.explain) await tableCounts();
  await withClient(databaseUrl('postgres'), async (admin) => {
    for (const service of Object.values(opened))
      await admin.query(`drop database if exists "${service.name}"`);
  });
}

for (const size of args.explain ? [] : batchSizes) {
  for (const serviceName of services) {
    for (const [variant] of variants) {
      const mine = results.filter(
        (r) => r.size === size && r.service === serviceName && r.variant === variant,
      );
      const node = median(mine.map((r) => r.nodeMsPerEvent));
      const postgres = median(mine.map((r) => r.postgresMsPerEvent));
      const gc = median(mine.map((r) => r.gcMsPerEvent));
      console.log(
        `batch ${String(size).padStart(5)} ${serviceName.padEnd(5)} ${variant.padEnd(8)} node ${node.toFixed(4)} (gc ${gc.toFixed(4)}) + PostgreSQL ${postgres.toFixed(4)} = ${(node + postgres).toFixed(4)} ms/event (median of ${mine.length})`,
      );
    }
  }
}
