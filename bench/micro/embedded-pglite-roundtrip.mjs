#!/usr/bin/env node
// The bookkeeping worker's database work per usage event, alone (issue 17, brief H39): PGlite on the
// process's own thread as embedded mode's bookkeeping worker runs it (startPgliteServers(…, { thread:
// 'this' })), a database opened through openDatabase({ embedded: true }), and per usage event what a
// service's consumer and its outbox relay send it: one transaction applying the batch (a
// json_to_recordset upsert, one outbox row enqueued) and one relay round publishing it to a bus that
// takes everything. CPU of this process (utime + stime: its one JS thread, V8's and libuv's helpers)
// per event, for each checkout given (its own compiled libs/persistence), in interleaved rounds, each
// round a fresh process and a fresh data directory.
//
//   node bench/micro/embedded-pglite-roundtrip.mjs --roots base=/tmp/h39/base,after=. \
//     [--batch 1,20] [--events 1500] [--rounds 4]
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    roots: { type: 'string', default: 'head=.' },
    batch: { type: 'string', default: '1,20' },
    events: { type: 'string', default: '1500' },
    rounds: { type: 'string', default: '4' },
    // Internal: one measurement in a child process.
    child: { type: 'string' },
  },
});

if (args.child) {
  const { root, batch, events, template } = JSON.parse(args.child);
  console.log(JSON.stringify(await measure(root, batch, events, template)));
  process.exit(0);
}

const roots = args.roots.split(',').map((entry) => {
  const [label, path] = entry.split('=');
  return { label, root: resolve(path) };
});
// initdb once (the slow part of a first start, and not what is measured); each run copies it.
const template = mkdtempSync(join(tmpdir(), 'tollgate-embedded-pglite-template-'));
execFileSync(process.execPath, [
  '-e',
  'require(process.argv[1]).PGlite.create({ dataDir: process.argv[2] }).then((db) => db.close())',
  createRequire(import.meta.url).resolve('@electric-sql/pglite'),
  join(template, 'db'),
]);
const results = {};
for (let round = 0; round < Number(args.rounds); round++) {
  // The order alternates from round to round, so that neither checkout always runs first.
  const order = round % 2 === 0 ? roots : [...roots].reverse();
  for (const batch of args.batch.split(',').map(Number)) {
    for (const { label, root } of order) {
      const out = execFileSync(
        process.execPath,
        [
          fileURLToPath(import.meta.url),
          '--child',
          JSON.stringify({ root, batch, events: Number(args.events), template: join(template, 'db') }),
        ],
        { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
      );
      const result = JSON.parse(out.trim().split('\n').pop());
      ((results[`batch ${batch}`] ??= {})[label] ??= []).push(result.cpuMsPerEvent);
      console.error(`round ${round + 1} batch ${batch} ${label}: ${JSON.stringify(result)}`);
    }
  }
}
rmSync(template, { recursive: true, force: true });
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(
  JSON.stringify(
    Object.fromEntries(
      Object.entries(results).map(([batch, byLabel]) => [
        batch,
        Object.fromEntries(
          Object.entries(byLabel).map(([label, values]) => [label, { median: median(values), runs: values }]),
        ),
      ]),
    ),
    null,
    1,
  ),
);

async function measure(root, batch, events, template) {
  const require = createRequire(join(root, 'package.json'));
  require('reflect-metadata');
  const persistence = require('@tollgate/persistence');
  const { Migration } = require('@mikro-orm/migrations');
  class CreateUsage extends Migration {
    up() {
      this.addSql('create table usage (key int primary key, used bigint not null, applied_at timestamptz)');
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-embedded-pglite-roundtrip-'));
  cpSync(template, join(dir, 'db'), { recursive: true });
  const [server] = await persistence.startPgliteServers([join(dir, 'db')], { thread: 'this' });
  const db = await persistence.openDatabase({
    url: server.url,
    entities: [persistence.OutboxMessage],
    migrations: [persistence.Migration20261122000000CreateOutboxMessages, CreateUsage],
    embedded: true,
  });
  let published = 0;
  const relay = new persistence.OutboxRelay({
    em: db.em,
    bus: { publish: async (batchOfEvents) => void (published += batchOfEvents.length) },
    logger: { warn: () => undefined },
  });
  let next = 0;
  const applyBatch = async () => {
    const items = Array.from({ length: batch }, () => ({ key: next++ % 50, used: 7 }));
    await db.em.fork().transactional(async (em) => {
      await em.execute(
        `insert into usage (key, used, applied_at)
         select key, sum(used), now() from json_to_recordset(?::json) as x(key int, used bigint) group by key
         on conflict (key) do update set used = usage.used + excluded.used, applied_at = excluded.applied_at`,
        [JSON.stringify(items)],
      );
      await persistence.enqueueOutbox(em, [
        { topic: 'bench.usage', key: String(next), value: { v: 1, events: batch }, headers: {} },
      ]);
    });
    await relay.flushNow();
  };
  for (let i = 0; i < Math.ceil(1000 / batch); i++) await applyBatch();
  const batches = Math.ceil(events / batch);
  const before = process.cpuUsage();
  for (let i = 0; i < batches; i++) await applyBatch();
  const cpu = process.cpuUsage(before);
  await db.close(true);
  await server.close();
  rmSync(dir, { recursive: true, force: true });
  return {
    cpuMsPerEvent: Number(((cpu.user + cpu.system) / 1000 / (batches * batch)).toFixed(4)),
    published,
  };
}
