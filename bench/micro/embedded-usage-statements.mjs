#!/usr/bin/env node
// The bookkeeping worker's three usage consumers on one PGlite, alone (issue 17, H62): auth's token
// usage, billing's settlement and admin's channel usage, each through its compiled consumer and
// repository, on one PGlite on this thread in the services' own schemas (as embedded mode's
// bookkeeping worker runs them), taking turns batch after batch so that PGlite's one session
// changes hands at every batch, as in the worker. CPU of this process (utime + stime) per batch of
// each service, for each checkout given (its own compiled libs/persistence and apps), in
// interleaved rounds, each round a fresh process and data directory. With --count, also how many
// statements PGlite was sent to parse (Parse messages) per batch.
//
//   node bench/micro/embedded-usage-statements.mjs --roots base=/tmp/h62/base,head=. \
//     [--batch 1,10,100] [--batches 60] [--rounds 3]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { benchUsageEvent, usageConsumerOf } from '../lib/usage-consumer.mjs';

const { values: args } = parseArgs({
  options: {
    roots: { type: 'string', default: 'head=.' },
    batch: { type: 'string', default: '1,10,100' },
    batches: { type: 'string', default: '60' },
    rounds: { type: 'string', default: '3' },
    child: { type: 'string' },
  },
});
const SERVICES = ['auth', 'billing', 'admin'];

if (args.child) {
  const { root, batch, batches, dir } = JSON.parse(args.child);
  console.log(JSON.stringify(await measure(root, batch, batches, dir)));
  process.exit(0);
}

const roots = args.roots.split(',').map((entry) => {
  const [label, path] = entry.split('=');
  return { label, root: resolve(path) };
});
const results = [];
for (let round = 0; round < Number(args.rounds); round++) {
  const order = round % 2 === 0 ? roots : [...roots].reverse();
  for (const batch of args.batch.split(',').map(Number)) {
    for (const { label, root } of order) {
      const dir = mkdtempSync(join(tmpdir(), 'tollgate-usage-statements-'));
      try {
        const out = execFileSync(
          process.execPath,
          [
            fileURLToPath(import.meta.url),
            '--child',
            JSON.stringify({ root, batch, batches: Number(args.batches), dir }),
          ],
          { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
        );
        const result = { round, label, batch, ...JSON.parse(out.trim().split('\n').at(-1)) };
        results.push(result);
        console.log(JSON.stringify(result));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
for (const batch of args.batch.split(',').map(Number)) {
  for (const { label } of roots) {
    const mine = results.filter((r) => r.batch === batch && r.label === label);
    const cells = SERVICES.map(
      (s) =>
        `${s} ${median(mine.map((r) => r.msPerBatch[s])).toFixed(3)} ms (${median(mine.map((r) => r.parsesPerBatch[s])).toFixed(2)} parses)`,
    );
    console.log(
      `batch ${String(batch).padStart(4)} ${label.padEnd(6)} per batch: ${cells.join(', ')} (median of ${mine.length})`,
    );
  }
}

/** The compiled migrations of one app, in file-name order. */
function migrations(load, dist) {
  return readdirSync(resolve(dist, 'migrations'))
    .filter((file) => file.endsWith('.migration.js'))
    .sort((a, b) => (a.slice(0, -'.migration.js'.length) < b.slice(0, -'.migration.js'.length) ? -1 : 1))
    .flatMap((file) => Object.values(load(`./migrations/${file}`)))
    .filter((value) => typeof value === 'function' && typeof value.prototype?.up === 'function');
}

function busEventOptions(handler) {
  const extras = Reflect.getMetadata('microservices:pattern_extras', handler);
  const key = Object.getOwnPropertySymbols(extras).find((symbol) => symbol.description === 'BusEventOptions');
  return extras[key];
}

async function measure(root, batch, batches, dir) {
  const require = createRequire(join(root, 'package.json'));
  require('reflect-metadata');
  const persistence = require('@tollgate/persistence');
  const { decodeWithSchema } = require('@tollgate/runtime');
  const instancesModule = require(join(root, 'libs/persistence/dist/pglite/pglite-instances.js'));
  const [instance] = await instancesModule.startPgliteInstances([join(dir, 'platform')], { socket: false });
  let parses = 0;
  const exec = instance.db.execProtocolRawStream.bind(instance.db);
  instance.db.execProtocolRawStream = (message, options) => {
    const bytes = Buffer.from(message);
    for (
      let offset = 0;
      bytes[0] !== 0 && offset + 5 <= bytes.length;
      offset += 1 + bytes.readInt32BE(offset + 1)
    )
      if (bytes[offset] === 0x50) parses++;
    return exec(message, options);
  };
  const url = (schema) => {
    const u = new URL(instance.url);
    u.searchParams.set('schema', schema);
    return u.toString();
  };
  const services = {};
  for (const name of SERVICES) {
    const dist = join(root, 'apps', name, 'dist');
    const load = (path) => require(resolve(dist, path));
    const entities = {
      auth: () => [
        load('./users/user.entity.js').User,
        load('./tokens/token.entity.js').Token,
        load('./token-usage/applied-usage-event.entity.js').AppliedUsageEvent,
      ],
      admin: () => [load('./channels/channel.entity.js').Channel],
      billing: () => [load('./accounts/account.entity.js').Account],
    }[name]();
    const orm = await persistence.openDatabase({
      url: url(name),
      entities: [persistence.OutboxMessage, ...entities],
      migrations: [persistence.Migration20261122000000CreateOutboxMessages, ...migrations(load, dist)],
      embedded: true,
    });
    const { consumer, handler } = usageConsumerOf(name, orm.em, load);
    const connection = orm.em.getConnection();
    if (name === 'auth') {
      const [user] = await connection.execute(
        `insert into users (username, display_name) values ('micro', 'micro') returning id`,
      );
      await connection.execute(
        `insert into tokens (user_id, name, key_hash, key_encrypted, key_masked, remain_quota, created_at, updated_at)
         select ${user.id}, 'micro ' || i, md5(i::text), 'x', 'sk-…', 1000000000000, now(), now() from generate_series(1, 10) i`,
      );
    }
    if (name === 'admin') {
      await connection.execute(
        `insert into channels (type, name, key_encrypted, key_masked, created_at, updated_at)
         select 1, 'micro ' || i, 'x', 'sk-…', now(), now() from generate_series(1, 5) i`,
      );
    }
    services[name] = { orm, consumer, handler, decode: decodeWithSchema(busEventOptions(handler).schema) };
  }
  const events = () =>
    Array.from({ length: batch }, (_, i) => ({
      topic: 'usage.recorded',
      partition: 0,
      offset: String(i),
      key: '',
      headers: {},
      timestamp: 0,
      raw: benchUsageEvent({
        userId: 1 + (i % 10),
        tokenId: 1 + (i % 10),
        channelId: 1 + (i % 5),
        createdAt: Math.floor(Date.now() / 1000),
      }),
    }));
  const msPerBatch = Object.fromEntries(SERVICES.map((s) => [s, 0]));
  const parsesPerBatch = Object.fromEntries(SERVICES.map((s) => [s, 0]));
  // 10 rounds of warm-up (JIT, the plan caches), then the measured ones.
  for (let i = 0; i < 10 + batches; i++) {
    for (const name of SERVICES) {
      const service = services[name];
      const batchEvents = events().map(({ raw, ...rest }) => ({ ...rest, value: service.decode(raw) }));
      const parsesBefore = parses;
      const before = process.cpuUsage();
      await service.handler.call(service.consumer, batchEvents);
      const used = process.cpuUsage(before);
      if (i >= 10) {
        msPerBatch[name] += (used.user + used.system) / 1000 / batches;
        parsesPerBatch[name] += (parses - parsesBefore) / batches;
      }
    }
  }
  for (const { orm } of Object.values(services)) await orm.close(true);
  await instancesModule.stopPgliteInstance(instance);
  return { msPerBatch, parsesPerBatch };
}
