/**
 * Run by pglite-in-thread.spec.ts in a child process (ScenarioProcess, src/test-scenarios), which runs
 * its scenarios one after another; by hand, one: `node -r ts-register.js pglite-in-thread-scenarios.ts <scenario>
 * <root dir>` prints what it saw as JSON. The PGlite instances run on this thread (`startPgliteServers(…, { thread: 'this' })`, as
 * in embedded mode's bookkeeping worker), so `openDatabase` reaches them without their socket.
 */
import 'reflect-metadata';
import { join } from 'node:path';
import { Client } from 'pg';
import { withSchema } from '../../src/database/database-url';
import { openDatabase, type Database } from '../../src/database/open-database';
import { queryRows } from '../../src/database/query-rows';
import { inThreadPgliteStream, PgliteConnection } from '../../src/pglite/pglite-connection';
import {
  startPgliteInstances,
  stopPgliteInstance,
  vacuumAndAnalyze,
  type PgliteInstance,
} from '../../src/pglite/pglite-instances';
import { serveScenarios, type Scenarios } from '../../src/test-scenarios/scenario-child';
import { CounterSchema, Migration20261122000100CreateCounters } from './counter.fixture';
import { initialisedDataDir } from './initialised-data-dir';

const urlOf = (instance: PgliteInstance) => instance.url;

/** A data directory of the scenario's, already initialised (none of these scenarios is about initdb). */
const dataDirIn = (root: string, name: string) => initialisedDataDir(join(root, 'pg', name));

/** How many clients connected to the instances' sockets: none, when everything went in memory. */
function countSocketConnections(instances: PgliteInstance[]): () => number {
  let count = 0;
  for (const { server } of instances) server?.addEventListener('connection', () => count++);
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
  const instances = await startPgliteInstances([dataDirIn(root, 'billing')]);
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
  const [instance] = await startPgliteInstances([dataDirIn(root, 'auth')]);
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
  const [instance] = await startPgliteInstances([dataDirIn(root, 'chat')]);
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
  const [instance] = await startPgliteInstances([dataDirIn(root, 'admin')]);
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
  const dataDirs = ['auth', 'billing'].map((name) => dataDirIn(root, name));
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

/**
 * Reads until `done` says so, or 20 s have passed (PostgreSQL publishes its table statistics at most
 * once a second); returns the last reading.
 */
async function readUntil<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 20_000;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}

/** Dead rows (PGlite has no autovacuum) are vacuumed away by the instance's own check. */
async function vacuumsDeadRows(root: string) {
  const [instance] = await startPgliteInstances([dataDirIn(root, 'billing')]);
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
  const before = await readUntil(deadRows, (dead) => dead >= 1_000);
  const stop = vacuumAndAnalyze(db, { intervalMs: 20, deadRows: 1_000 });
  const after = await readUntil(deadRows, (dead) => dead === 0);
  await stop();
  await stopPgliteInstance(instance!);
  return { before, after };
}

/** A table that only grows (no dead rows) is analyzed once it changed enough, as autovacuum would. */
async function analyzesGrownTables(root: string) {
  const [instance] = await startPgliteInstances([dataDirIn(root, 'billing')]);
  const { db } = instance!;
  const statsOf = async () =>
    (
      await db.query<{ analyzed: boolean; rows: number }>(
        `select last_analyze is not null as analyzed,
                (select reltuples::int from pg_class where relname = 'usage_logs') as rows
           from pg_stat_user_tables where relname = 'usage_logs'`,
      )
    ).rows[0]!;
  await db.exec('create table usage_logs (id int primary key, model text not null)');
  await db.exec("insert into usage_logs select n, 'm' || (n % 7) from generate_series(1, 2000) as n");
  const before = await statsOf();
  const stop = vacuumAndAnalyze(db, { intervalMs: 20, deadRows: 1_000 });
  const after = await readUntil(statsOf, (stats) => stats.analyzed);
  await stop();
  await stopPgliteInstance(instance!);
  return { before, after };
}

/** A client's view of its session: what another connection's SET, temp table or lock would show up in. */
async function sessionOf(client: Client) {
  const { rows } = await client.query<{
    searchPath: string;
    timeout: string;
    temps: number;
    prepared: number;
    advisory: number;
  }>(
    `select current_setting('search_path') as "searchPath", current_setting('statement_timeout') as timeout,
            (select count(*)::int from pg_class where relpersistence = 't') as temps,
            (select count(*)::int from pg_prepared_statements) as prepared,
            (select count(*)::int from pg_locks where locktype = 'advisory') as advisory`,
  );
  return rows[0]!;
}

/**
 * Two services' schemas in one PGlite (one backend session), each through its in-thread connections:
 * what one sets in the session (search_path, a setting, a temporary table, a prepared statement, an
 * advisory lock), outside a transaction or inside one, is never seen by the other.
 */
async function twoSchemasOneSession(root: string) {
  const [instance] = await startPgliteInstances([dataDirIn(root, 'platform')], { socket: false });
  const client = async (schema: string) => {
    const url = withSchema(instance!.url, schema);
    const c = new Client({ connectionString: url, ssl: false, stream: inThreadPgliteStream(url) });
    await c.connect();
    return c;
  };
  const auth = await client('auth');
  const billing = await client('billing');
  await auth.query('create schema auth; create schema billing');
  await auth.query('create table notes (body text)');
  await billing.query('create table notes (body text)');
  await billing.query('create table public.notes (body text)');

  // Outside a transaction: session-level SETs and state.
  await auth.query("set search_path to public; set statement_timeout = '7s'");
  await auth.query('create temp table scratch (x int); prepare mine as select 1');
  await auth.query('select pg_advisory_lock(17)');
  const billingAfterAuth = await sessionOf(billing);
  await billing.query("insert into notes values ('billing')");
  const authAfterBilling = await sessionOf(auth);
  await auth.query("insert into notes values ('auth')");

  // Inside auth's transaction: billing's statement waits for its end, and still sees its own session.
  await auth.query('begin');
  await auth.query("set search_path to public; insert into notes values ('auth, in its transaction')");
  const billingDuring = billing.query<{ body: string }>('select body from notes order by body');
  await new Promise((resolve) => setTimeout(resolve, 50));
  await auth.query('commit');
  const billingRowsAfterCommit = (await billingDuring).rows.map(({ body }) => body);
  const billingAfterTransaction = await sessionOf(billing);

  // Closed inside a transaction that had set the session's search_path: rolled back, nothing kept.
  const leaving = await client('auth');
  leaving.on('error', () => undefined);
  await leaving.query("begin; set search_path to billing; insert into notes values ('left behind')");
  (leaving as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
  await new Promise<void>((resolve) => leaving.once('end', () => resolve()));
  const billingAfterLeaver = await sessionOf(billing);

  const rows = async (schema: string) =>
    (await billing.query<{ body: string }>(`select body from ${schema}.notes order by body`)).rows.map(
      ({ body }) => body,
    );
  const result = {
    billingAfterAuth,
    authAfterBilling,
    billingRowsAfterCommit,
    billingAfterTransaction,
    billingAfterLeaver,
    authRows: await rows('auth'),
    billingRows: await rows('billing'),
    publicRows: await rows('public'),
  };
  await auth.end();
  await billing.end();
  await stopPgliteInstance(instance!);
  return result;
}

/** The counters table's service in `schema` of the PGlite at `url`, as a service opens its database. */
function openCountersIn(url: string, schema: string): Promise<Database> {
  return openDatabase({
    url: withSchema(url, schema),
    entities: [CounterSchema],
    migrations: [Migration20261122000100CreateCounters],
    embedded: true,
  });
}

/**
 * Two services through openDatabase on one PGlite, each in its schema (migrations included), their
 * transactions interleaved: each one's rows, raw SQL included, land in its own schema.
 */
async function twoServicesOneCluster(root: string) {
  const dataDir = dataDirIn(root, 'platform');
  const [instance] = await startPgliteInstances([dataDir], { socket: false });
  const openIn = (schema: string) => openCountersIn(instance!.url, schema);
  const auth = await openIn('auth');
  const billing = await openIn('billing');
  const write = (db: Database, name: string, value: number) =>
    db.em.fork().transactional(async (em) => {
      await em.execute(`insert into counters (name, value) values ('${name}', ${value})`);
      await new Promise((resolve) => setTimeout(resolve, 5));
      await em.execute(`update counters set value = value + 1 where name = '${name}'`);
    });
  for (let round = 0; round < 5; round++)
    await Promise.all([write(auth, `auth${round}`, round), write(billing, `billing${round}`, round * 10)]);
  const [authRows, billingRows] = await Promise.all([counters(auth), counters(billing)]);
  const tables = await auth.em
    .fork()
    .getConnection()
    .execute<{ name: string }[]>(
      "select table_schema || '.' || table_name as name from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema') order by 1",
    );
  await auth.close(true);
  await billing.close(true);
  await stopPgliteInstance(instance!);
  return { authRows, billingRows, tables: tables.map(({ name }) => name) };
}

/**
 * Three statements 1.6 s apart, as a service whose consumer batches once a second or whose outbox
 * polls every two: how many connections its pool opened to the in-thread PGlite, and how many times
 * the pool's reaper ran meanwhile (each a wake-up of the thread).
 */
async function keptConnection(root: string) {
  const instances = await startPgliteInstances([dataDirIn(root, 'billing')]);
  let connects = 0;
  const connect = PgliteConnection.prototype.connect;
  PgliteConnection.prototype.connect = function (this: PgliteConnection) {
    connects++;
    return connect.call(this);
  };
  const db = await open(instances[0]!);
  try {
    const pool = (db.em.getConnection().getKnex().client as { pool: { check(): void } }).pool;
    let reaps = 0;
    const check = pool.check.bind(pool);
    pool.check = () => {
      reaps++;
      check();
    };
    const connectsBefore = connects;
    const values: number[] = [];
    for (let i = 0; i < 3; i++) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, 1_600));
      values.push(Object.keys(await counters(db)).length);
    }
    return { values, connects: connects - connectsBefore, reaps };
  } finally {
    // The process runs other scenarios after this one.
    PgliteConnection.prototype.connect = connect;
    await db.close(true);
    for (const instance of instances) await stopPgliteInstance(instance);
  }
}

/**
 * Two services through openDatabase on one PGlite, each in its schema, taking turns with one
 * queryRows statement (the session changes hands every time, once inside a transaction): how many
 * times PGlite was sent the statement's text to parse, what each read, and which named statements
 * the session holds before and after one service closes. Then two raw clients that name their
 * statements alike, with different texts.
 */
async function preparedStatements(root: string) {
  const [instance] = await startPgliteInstances([dataDirIn(root, 'platform')], { socket: false });
  const db = instance!.db;
  const SQL =
    'select /* prepared */ count(*)::int as n, sum(value)::int as total from counters where value >= ?';
  let parses = 0;
  const exec = db.execProtocolRawStream.bind(db);
  db.execProtocolRawStream = (message, options) => {
    const bytes = Buffer.from(message);
    for (let offset = 0; offset + 5 <= bytes.length && bytes[0] !== 0;) {
      if (
        bytes[offset] === 0x50 &&
        bytes.subarray(offset, offset + 1 + bytes.readInt32BE(offset + 1)).includes('/* prepared */')
      )
        parses++;
      offset += 1 + bytes.readInt32BE(offset + 1);
    }
    return exec(message, options);
  };
  const openIn = (schema: string) => openCountersIn(instance!.url, schema);
  const auth = await openIn('auth');
  const billing = await openIn('billing');
  await auth.em.fork().execute("insert into counters (name, value) values ('a', 1), ('b', 2)");
  await billing.em.fork().execute("insert into counters (name, value) values ('c', 10)");
  const read = (database: Database) => queryRows<{ n: number; total: number }>(database.em.fork(), SQL, [0]);
  const reads: Record<string, unknown>[] = [];
  for (let round = 0; round < 8; round++) {
    reads.push({ auth: (await read(auth))[0], billing: (await read(billing))[0] });
  }
  const inTransaction = await auth.em.fork().transactional((em) => queryRows<{ n: number }>(em, SQL, [2]));
  const prepared = async (database: Database) =>
    (
      await database.em
        .fork()
        .getConnection()
        .execute<{ name: string }[]>('select name from pg_prepared_statements order by name')
    ).map(({ name }) => name.replace(/^c\d+_/, 'c*_'));
  const preparedBefore = await prepared(billing);
  await auth.close(true);
  const preparedAfterAuthClosed = await prepared(billing);
  await billing.close(true);

  const client = async (schema: string) => {
    const url = withSchema(instance!.url, schema);
    const c = new Client({ connectionString: url, ssl: false, stream: inThreadPgliteStream(url) });
    await c.connect();
    return c;
  };
  const one = await client('auth');
  const two = await client('billing');
  const alike: unknown[] = [];
  for (let round = 0; round < 3; round++) {
    alike.push((await one.query({ name: 'same', text: 'select $1::int + 1 as v', values: [round] })).rows[0]);
    alike.push(
      (await two.query({ name: 'same', text: "select $1::text || '!' as v", values: [round] })).rows[0],
    );
  }
  await one.end();
  await two.end();
  await stopPgliteInstance(instance!);
  return {
    parses,
    reads: [...new Set(reads.map((r) => JSON.stringify(r)))],
    inTransaction,
    preparedBefore,
    preparedAfterAuthClosed,
    alike,
  };
}

const SCENARIOS: Scenarios = {
  'two-schemas-one-session': twoSchemasOneSession,
  'two-services-one-cluster': twoServicesOneCluster,
  'vacuums-dead-rows': vacuumsDeadRows,
  'analyzes-grown-tables': analyzesGrownTables,
  transactions,
  'closed-by-client': closedByClient,
  'closed-by-server': closedByServer,
  'transaction-holds-the-database': transactionHoldsTheDatabase,
  'two-databases': twoDatabases,
  'kept-connection': keptConnection,
  'prepared-statements': preparedStatements,
};

serveScenarios('pglite-in-thread-scenarios.ts', SCENARIOS);
