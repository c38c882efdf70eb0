/**
 * Run by pglite-in-thread.spec.ts in a child process (see ts-register.js), one scenario per run:
 * `node -r ts-register.js pglite-in-thread-scenarios.ts <scenario> <root dir>`; prints what it saw
 * as JSON. The PGlite instances run on this thread (`startPgliteServers(…, { thread: 'this' })`, as
 * in embedded mode's bookkeeping worker), so `openDatabase` reaches them without their socket.
 */
import 'reflect-metadata';
import { join } from 'node:path';
import { Client } from 'pg';
import { openDatabase, type Database } from '../../src/database/open-database';
import { inThreadPgliteStream } from '../../src/pglite/pglite-connection';
import {
  startPgliteInstances,
  stopPgliteInstance,
  vacuumDeadRows,
  type PgliteInstance,
} from '../../src/pglite/pglite-instances';
import { CounterSchema, Migration20261122000100CreateCounters } from './counter.fixture';

const urlOf = (instance: PgliteInstance) =>
  `postgres://postgres:postgres@127.0.0.1:${instance.port}/postgres`;

/** How many clients connected to the instances' sockets: none, when everything went in memory. */
function countSocketConnections(instances: PgliteInstance[]): () => number {
  let count = 0;
  for (const { server } of instances) server.addEventListener('connection', () => count++);
  return () => count;
}

const open = (instance: PgliteInstance): Promise<Database> =>
  openDatabase({
    url: urlOf(instance),
    entities: [CounterSchema],
    migrations: [Migration20261122000100CreateCounters],
    embedded: true,
  });

async function counters(db: Database): Promise<Record<string, number>> {
  const rows = await db.em
    .fork()
    .getConnection()
    .execute<{ name: string; value: number }[]>('select name, value from counters order by name');
  return Object.fromEntries(rows.map(({ name, value }) => [name, value]));
}

/** An in-thread pg.Client, as knex makes them for openDatabase. */
async function inThreadClient(instance: PgliteInstance): Promise<Client> {
  const stream = inThreadPgliteStream(urlOf(instance));
  if (stream === undefined) throw new Error('no in-thread PGlite at that URL');
  const client = new Client({ connectionString: urlOf(instance), ssl: false, stream });
  await client.connect();
  return client;
}

/** A transaction commits; one failing midway rolls back what it had written; the connection goes on. */
async function transactions(root: string) {
  const instances = await startPgliteInstances([join(root, 'pg', 'billing')]);
  const socketConnections = countSocketConnections(instances);
  const db = await open(instances[0]!);
  try {
    await db.em.fork().transactional(async (em) => {
      await em.execute("insert into counters (name, value) values ('a', 1), ('b', 2)");
    });
    const failure = await db.em
      .fork()
      .transactional(async (em) => {
        await em.execute("update counters set value = 10 where name = 'a'");
        await em.execute("insert into counters (name, value) values ('b', 3)");
      })
      .then(
        () => 'committed',
        (error: unknown) => (error instanceof Error ? error.constructor.name : String(error)),
      );
    const after = await counters(db);
    return { failure, after, socketConnections: socketConnections() };
  } finally {
    await db.close(true);
    for (const instance of instances) await stopPgliteInstance(instance);
  }
}

/**
 * A client that leaves with a transaction open (ended, or its stream destroyed) has it rolled back,
 * and the next connection is not left waiting for it.
 */
async function closedByClient(root: string) {
  const [instance] = await startPgliteInstances([join(root, 'pg', 'auth')]);
  const setup = await inThreadClient(instance!);
  await setup.query('create table notes (body text)');
  await setup.end();

  const ending = await inThreadClient(instance!);
  await ending.query('begin');
  await ending.query("insert into notes values ('ended')");
  await ending.end();

  const destroyed = await inThreadClient(instance!);
  destroyed.on('error', () => undefined);
  await destroyed.query('begin');
  await destroyed.query("insert into notes values ('destroyed')");
  (destroyed as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
  await new Promise<void>((resolve) => destroyed.once('end', () => resolve()));

  const reader = await inThreadClient(instance!);
  const { rows } = await reader.query<{ body: string }>('select body from notes');
  await reader.end();
  await stopPgliteInstance(instance!);
  return { rows };
}

/** The instance stopping under an open client ends that client with an error rather than a hang. */
async function closedByServer(root: string) {
  const [instance] = await startPgliteInstances([join(root, 'pg', 'chat')]);
  const client = await inThreadClient(instance!);
  const errors: string[] = [];
  client.on('error', (error) => errors.push(error.message));
  await client.query('select 1');
  const ended = new Promise<void>((resolve) => client.once('end', () => resolve()));
  await stopPgliteInstance(instance!);
  await ended;
  const after = await client.query('select 1').then(
    () => 'answered',
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );
  return { after, streamFactoryAfterStop: inThreadPgliteStream(urlOf(instance!)) === undefined };
}

/**
 * While one connection's transaction is open, another connection's statements wait for it: they
 * neither run inside it nor see its uncommitted rows.
 */
async function transactionHoldsTheDatabase(root: string) {
  const [instance] = await startPgliteInstances([join(root, 'pg', 'admin')]);
  const first = await inThreadClient(instance!);
  const second = await inThreadClient(instance!);
  await first.query('create table events (id int)');
  const order: string[] = [];
  await first.query('begin');
  await first.query('insert into events values (1)');
  const read = second.query<{ n: string }>('select count(*) as n from events').then(({ rows }) => {
    order.push(`second read ${rows[0]!.n}`);
  });
  // Gives the second connection's query every chance to run before the commit.
  await new Promise((resolve) => setTimeout(resolve, 50));
  await first.query('insert into events values (2)');
  order.push('first commits');
  await first.query('commit');
  await read;
  await first.end();
  await second.end();
  await stopPgliteInstance(instance!);
  return { order };
}

/** Two services' databases in one thread: separate data, each kept across a restart. */
async function twoDatabases(root: string) {
  const dataDirs = ['auth', 'billing'].map((name) => join(root, 'pg', name));
  const first = await startPgliteInstances(dataDirs);
  const [auth, billing] = await Promise.all(first.map(open));
  await Promise.all([
    auth!.em
      .fork()
      .transactional((em) => em.execute("insert into counters (name, value) values ('auth', 1)")),
    billing!.em
      .fork()
      .transactional((em) => em.execute("insert into counters (name, value) values ('billing', 2)")),
  ]);
  await auth!.close(true);
  await billing!.close(true);
  for (const instance of first) await stopPgliteInstance(instance);

  const second = await startPgliteInstances(dataDirs);
  const socketConnections = countSocketConnections(second);
  const reopened = await Promise.all(second.map(open));
  const kept = await Promise.all(reopened.map(counters));
  for (const db of reopened) await db.close(true);
  for (const instance of second) await stopPgliteInstance(instance);
  return { kept, socketConnections: socketConnections() };
}

/** Dead rows (PGlite has no autovacuum) are vacuumed away by the instance's own check. */
async function vacuumsDeadRows(root: string) {
  const [instance] = await startPgliteInstances([join(root, 'pg', 'billing')]);
  const { db } = instance!;
  const deadRows = async () =>
    (
      await db.query<{ dead: number }>(
        "select n_dead_tup::int as dead from pg_stat_user_tables where relname = 'outbox'",
      )
    ).rows[0]!.dead;
  await db.exec('create table outbox (id int primary key, published boolean not null default false)');
  await db.exec('insert into outbox (id) select generate_series(1, 300)');
  for (let round = 0; round < 5; round++) await db.exec('update outbox set published = not published');
  // PostgreSQL publishes its table statistics at most once a second.
  const until = async (done: (dead: number) => boolean) => {
    const deadline = Date.now() + 20_000;
    let dead = await deadRows();
    while (!done(dead) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      dead = await deadRows();
    }
    return dead;
  };
  const before = await until((dead) => dead >= 1_000);
  const stop = vacuumDeadRows(db, { intervalMs: 20, deadRows: 1_000 });
  const after = await until((dead) => dead === 0);
  await stop();
  await stopPgliteInstance(instance!);
  return { before, after };
}

const SCENARIOS: Record<string, (root: string) => Promise<unknown>> = {
  'vacuums-dead-rows': vacuumsDeadRows,
  transactions,
  'closed-by-client': closedByClient,
  'closed-by-server': closedByServer,
  'transaction-holds-the-database': transactionHoldsTheDatabase,
  'two-databases': twoDatabases,
};

const [scenario, root] = process.argv.slice(2);
const run = scenario === undefined ? undefined : SCENARIOS[scenario];
if (run === undefined || root === undefined) {
  console.error(`usage: pglite-in-thread-scenarios.ts <${Object.keys(SCENARIOS).join('|')}> <root dir>`);
  process.exit(2);
}
run(root).then(
  (result) => {
    process.stdout.write(JSON.stringify(result));
    process.exit(0);
  },
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
