#!/usr/bin/env node
// auth's token-usage, admin's channel-usage and billing's settlement consumers alone (issue 17, billing
// since H46): CPU per usage event of
// this process and of the PostgreSQL backends of each service's database, in interleaved rounds,
// for each variant of the two services' compiled code.
//
// Each batch goes through what the service runs after kafkajs has fetched it: the value's UTF-8 text
// parsed (libs/events' decodeKafkaMessage), checked against the handler's own @BusEvent schema
// (libs/runtime's decodeWithSchema, the schema read from the compiled consumer's metadata), then the
// compiled consumer's handler with its repository on a real database. The outbox relay is not run:
// its `nudge()` is a no-op here (auth enqueues one identity.token row per key changed per batch).
//
// A variant is a directory holding `auth/dist`, `admin/dist` and `billing/dist` (a copy of the apps' dist taken
// before a change; `apps` is the working tree's). Each variant gets fresh databases, migrated by its
// own migrations, with `--keys` API keys and `--channels` channels the events are charged to.
//
//   node bench/micro/usage-consumers.mjs --database-url postgres://…/postgres \
//     --variants before=/tmp/usage-before,after=apps [--batch 30,300,3000] [--events 30000] [--rounds 5]
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { databaseUrlOn, processCpuMs, withClient } from '../lib/pg-micro.mjs';
import { benchUsageEvent, usageConsumerOf } from '../lib/usage-consumer.mjs';

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
  },
});
if (!args['database-url']) throw new Error('--database-url of a PostgreSQL server is required');
const databaseUrl = (name) => databaseUrlOn(args['database-url'], name);
const root = new URL('../..', import.meta.url).pathname;
const require = createRequire(import.meta.url);
require('reflect-metadata');
const { openDatabase } = require('@tollgate/persistence');
const { decodeWithSchema } = require('@tollgate/runtime');
const { Migration20261122000000CreateOutboxMessages, OutboxMessage } = require('@tollgate/persistence');
const batchSizes = args.batch.split(',').map(Number);
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
  return { name, orm, consumer, handler, ids, decode };
}

/** A batch as kafkajs hands it over: each event's JSON as a Buffer. */
function encodedBatch(size, keys, channels) {
  const created = Math.floor(Date.now() / 1000);
  return Array.from({ length: size }, (_, i) =>
    Buffer.from(
      JSON.stringify(
        benchUsageEvent({
          userId: 1 + (i % Number(args.users)),
          tokenId: keys[i % keys.length],
          channelId: channels[i % channels.length],
          createdAt: created + (i % 7),
        }),
      ),
    ),
  );
}

/** What the service does with a fetched batch: parse, check, hand to the consumer. */
async function consume(service, buffers) {
  const events = buffers.map((value, offset) => ({
    topic: 'usage.recorded',
    partition: 0,
    offset: String(offset),
    key: '',
    headers: {},
    timestamp: 0,
    value: service.decode(JSON.parse(value.toString('utf8'))),
  }));
  await service.handler.call(service.consumer, events);
}

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

const results = [];
try {
  await withClient(databaseUrl('postgres'), async (admin) => {
    for (let round = 0; round < Number(args.rounds); round++) {
      for (const size of batchSizes) {
        for (const [variant] of variants) {
          for (const serviceName of services) {
            const service = opened[`${variant}/${serviceName}`];
            const ids = serviceName === 'auth' ? service.ids : [1];
            const channels = serviceName === 'admin' ? service.ids : [1];
            const batches = Math.ceil(Number(args.events) / size);
            const work = Array.from({ length: batches + 1 }, () => encodedBatch(size, ids, channels));
            await consume(service, work[0]); // warm-up: connections, plan cache
            const before = new Map(
              (await backends(admin, service.name)).map((pid) => [pid, processCpuMs(pid)]),
            );
            const own = process.cpuUsage();
            for (const batch of work.slice(1)) await consume(service, batch);
            const ownUsed = process.cpuUsage(own);
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
  await withClient(databaseUrl('postgres'), async (admin) => {
    for (const service of Object.values(opened))
      await admin.query(`drop database if exists "${service.name}"`);
  });
}

const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
for (const size of batchSizes) {
  for (const serviceName of services) {
    for (const [variant] of variants) {
      const mine = results.filter(
        (r) => r.size === size && r.service === serviceName && r.variant === variant,
      );
      const node = median(mine.map((r) => r.nodeMsPerEvent));
      const postgres = median(mine.map((r) => r.postgresMsPerEvent));
      console.log(
        `batch ${String(size).padStart(5)} ${serviceName.padEnd(5)} ${variant.padEnd(8)} node ${node.toFixed(4)} + PostgreSQL ${postgres.toFixed(4)} = ${(node + postgres).toFixed(4)} ms/event (median of ${mine.length})`,
      );
    }
  }
}
