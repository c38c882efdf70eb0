/**
 * Run by pglite-server.spec.ts in a child process (see ts-register.js), one scenario per run:
 * `node -r ts-register.js pglite-server-scenarios.ts <scenario> <root dir>`; prints what it saw as
 * JSON and exits on its own, so a worker that kept the process alive would show as a timeout.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { withoutSchema } from '../../src/database/database-url';
import { inThreadPgliteStream } from '../../src/pglite/pglite-connection';
import { startPgliteServer, startPgliteServers } from '../../src/pglite/pglite-server';
import { initialisedDataDir } from './initialised-data-dir';

async function withClient<T>(url: string, use: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url, ssl: false });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/**
 * A data directory of the scenario's, already initialised: these scenarios are about serving one;
 * making one from nothing (initdb, missing parent folders) is pglite-server-roundtrip.ts's.
 */
const dataDirIn = (root: string, name: string) => initialisedDataDir(join(root, 'pg', name));

const query = <T>(url: string, sql: string) =>
  withClient(url, async (client) => (await client.query(sql)).rows as T[]);

/**
 * A query that writes `query-started` into its data directory, then spins until the file
 * `main-thread-answered` appears there, which this process's main thread writes from a timer once
 * it sees the first. It gives up after 20 s: if PostgreSQL ran on the main thread, the timer could
 * not fire until the query had ended, and the query would answer false.
 */
const WAIT_FOR_MAIN_THREAD = `
create function wait_for_main_thread() returns boolean language plpgsql as $$
declare
  deadline timestamptz := clock_timestamp() + interval '20 seconds';
begin
  execute format('copy (select 1) to %L', current_setting('data_directory') || '/query-started');
  while (pg_stat_file('main-thread-answered', true)).size is null loop
    if clock_timestamp() > deadline then
      return false;
    end if;
  end loop;
  return true;
end $$`;

async function mainThreadDuringQuery(root: string) {
  const dataDir = dataDirIn(root, 'billing');
  const server = await startPgliteServer({ dataDir });
  const events: string[] = [];
  try {
    const answered = await withClient(server.url, async (client) => {
      await client.query(WAIT_FOR_MAIN_THREAD);
      const timer = setInterval(() => {
        if (!existsSync(join(dataDir, 'query-started')) || events.length > 0) return;
        events.push('a timer saw query-started');
        writeFileSync(join(dataDir, 'main-thread-answered'), '');
      }, 5);
      try {
        const { rows } = await client.query<{ answered: boolean }>(
          'select wait_for_main_thread() as answered',
        );
        events.push('query answered');
        return rows[0]!.answered;
      } finally {
        clearInterval(timer);
      }
    });
    return { answered, events };
  } finally {
    await server.close();
  }
}

async function severalInOneWorker(root: string) {
  const dataDirs = ['auth', 'billing'].map((name) => dataDirIn(root, name));
  const first = await startPgliteServers(dataDirs);
  await query(first[0]!.url, "create table users (name text); insert into users values ('ann')");
  await query(first[1]!.url, 'create table ledger (amount bigint); insert into ledger values (150)');
  await Promise.all(first.map((server) => server.close()));

  const second = await startPgliteServers(dataDirs);
  const tables = await Promise.all(
    second.map((server) =>
      query<{ name: string }>(
        server.url,
        "select tablename as name from pg_tables where schemaname = 'public'",
      ),
    ),
  );
  const users = await query<{ name: string }>(second[0]!.url, 'select name from users');
  const ledger = await query<{ amount: string }>(second[1]!.url, 'select amount from ledger');
  for (const server of second) await server.close();
  // A second close of a closed server is a no-op.
  await second[0]!.close();
  return { urls: [...first, ...second].map((server) => server.url), tables, users, ledger };
}

/**
 * A data directory of an older PostgreSQL fails at once. (A file where the data directory should be
 * fails too, but only after PGlite has run a whole initdb in memory: seconds of CPU.)
 */
async function oneFailsToStart(root: string) {
  const olderVersion = join(root, 'older-version');
  mkdirSync(olderVersion, { recursive: true });
  writeFileSync(join(olderVersion, 'PG_VERSION'), '12\n');
  const good = dataDirIn(root, 'auth');
  const error = await startPgliteServers([good, olderVersion]).then(
    () => undefined,
    (reason: unknown) => (reason instanceof Error ? reason.message : String(reason)),
  );
  // The instance started before the failure was closed cleanly: it starts again.
  const again = await startPgliteServer({ dataDir: good });
  const [{ one }] = await query<{ one: number }>(again.url, 'select 1 as one');
  await again.close();
  return { error, restartedGood: one };
}

/**
 * Two schemas on one data directory, on this thread: one PGlite without a socket, each database's URL
 * with its schema; the instance stops with the last of them. On a worker (pglite-socket) it is refused.
 */
async function schemasSharingOneDataDir(root: string) {
  const dataDir = dataDirIn(root, 'platform');
  const [auth, billing] = await startPgliteServers(
    [
      { dataDir, schema: 'auth' },
      { dataDir, schema: 'billing' },
    ],
    { thread: 'this' },
  );
  const inThreadQuery = async (url: string, sql: string) => {
    const client = new Client({ connectionString: url, ssl: false, stream: inThreadPgliteStream(url) });
    await client.connect();
    try {
      return (await client.query(sql)).rows as unknown[];
    } finally {
      await client.end();
    }
  };
  await inThreadQuery(
    auth!.url,
    'create schema auth; create table auth.a (x int); insert into auth.a values (1)',
  );
  await auth!.close();
  const afterFirstClose = await inThreadQuery(billing!.url, 'select x from auth.a');
  await billing!.close();
  const socketRefused = await query(withoutSchema(auth!.url), 'select 1').then(
    () => 'answered',
    (error: unknown) => (error as { code?: string }).code,
  );
  const onWorker = await startPgliteServers([dataDir, dataDir]).then(
    () => 'started',
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );
  return {
    urls: [auth!.url, billing!.url],
    afterFirstClose,
    servedAfterLastClose: inThreadPgliteStream(billing!.url) !== undefined,
    socketRefused,
    onWorker,
  };
}

const SCENARIOS: Record<string, (root: string) => Promise<unknown>> = {
  'schemas-sharing-one-data-dir': schemasSharingOneDataDir,
  'main-thread-during-query': mainThreadDuringQuery,
  'several-in-one-worker': severalInOneWorker,
  'one-fails-to-start': oneFailsToStart,
};

const [scenario, root] = process.argv.slice(2);
const run = scenario === undefined ? undefined : SCENARIOS[scenario];
if (run === undefined || root === undefined) {
  throw new Error(`usage: pglite-server-scenarios <${Object.keys(SCENARIOS).join('|')}> <root dir>`);
}
run(root).then(
  (result) => process.stdout.write(JSON.stringify(result)),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
