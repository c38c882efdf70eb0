/**
 * Run by legacy-pglite-migration.spec.ts in a child process (PGlite cannot run inside Jest's sandbox;
 * see @tollgate/persistence's ScenarioProcess), which runs its steps one after another; by
 * hand, one: `node -r ts-register.js legacy-pglite-scenarios.ts <step> <pg dir> [option]` prints what
 * it saw as JSON.
 */
import 'reflect-metadata';
import { join } from 'node:path';
import { Migration } from '@mikro-orm/migrations';
import type { Database, PgliteDatabase, Scenarios } from '@tollgate/persistence';
import { prepareServiceDatabases } from '../../src/embedded-databases';
import { migrateLegacyClusters } from '../../src/legacy-pglite-migration';

export const SERVICES = ['auth', 'billing', 'chat', 'admin'];

/** What a service's migrations make: the kinds of objects Tollgate's own make. */
class Migration20261123000000Ledger extends Migration {
  override up(): void {
    this.addSql(`create table "accounts" (
      "user_id" bigint primary key, "name" text not null unique, "tags" text[] not null default '{}',
      "created_at" timestamptz not null default now(), "quota" bigint not null default 0 check ("quota" >= 0))`);
    this.addSql(`create table "entries" (
      "id" bigserial primary key, "user_id" bigint not null references "accounts" ("user_id") on delete cascade,
      "amount" bigint not null, "meta" jsonb null, "doubled" bigint generated always as ("amount" * 2) stored,
      "at" timestamptz not null default now(), constraint "entries_amount_nonzero" check ("amount" <> 0))`);
    this.addSql('create index "entries_user_id_index" on "entries" ("user_id") where "meta" is not null');
    this.addSql('create index "entries_at_brin" on "entries" using brin ("at")');
    this.addSql(`create function "entries_append_only"() returns trigger language plpgsql as $$
      begin raise exception 'entries is append-only'; end; $$`);
    this.addSql(`create trigger "entries_append_only" before update or delete on "entries"
      for each row execute function "entries_append_only"()`);
  }
}

// Loaded as the launcher loads it (the lint rule wants one way per project).
const persistence = () => import('@tollgate/persistence');

async function open(url: string): Promise<Database> {
  const { openDatabase, OutboxMessage, Migration20261122000000CreateOutboxMessages } = await persistence();
  return openDatabase({
    url,
    entities: [OutboxMessage],
    migrations: [Migration20261122000000CreateOutboxMessages, Migration20261123000000Ledger],
    embedded: true,
  });
}

async function withDatabases<T>(
  databases: PgliteDatabase[],
  use: (dbs: Database[]) => Promise<T>,
): Promise<T> {
  const servers = await (await persistence()).startPgliteServers(databases, { thread: 'this' });
  const dbs: Database[] = [];
  try {
    for (const server of servers) dbs.push(await open(server.url));
    return await use(dbs);
  } finally {
    for (const db of dbs) await db.close(true);
    for (const server of servers) await server.close();
  }
}

const sql = <T>(db: Database, query: string, params: unknown[] = []) =>
  db.em.getConnection().execute<T[]>(query, params);

/** The legacy layout as embedded mode served it: a cluster per service, its tables in `public`. */
async function legacy(pgDir: string, rows: number) {
  const databases = SERVICES.map((service) => ({ dataDir: join(pgDir, service) }));
  return withDatabases(databases, async (dbs) => {
    for (const [index, db] of dbs.entries()) {
      await sql(
        db,
        `insert into accounts (user_id, name, tags) values (1, ?, '{a,"b c"}'), (2, 'second', '{}')`,
        [`user of ${SERVICES[index]}`],
      );
      await sql(
        db,
        `insert into entries (user_id, amount, meta) select 1 + i % 2, i, case when i % 3 = 0 then jsonb_build_object('i', i, 'text', E'tab\\there "quoted" \\\\ back') end from generate_series(1, ?) i`,
        [rows],
      );
      // Ids taken and never used: the sequence is ahead of the table.
      await sql(db, `select nextval('entries_id_seq') from generate_series(1, 5)`);
      await sql(
        db,
        `insert into outbox_messages (topic, key, value) select 'topic', 'k' || i, jsonb_build_object('n', i) from generate_series(1, 7) i`,
      );
      await sql(db, `update outbox_messages set published_at = now() where id <= 3`);
    }
    return 'ok';
  });
}

async function snapshotOf(db: Database) {
  return {
    accounts: await sql(db, 'select user_id, name, tags, created_at, quota from accounts order by user_id'),
    entries: await sql<{ n: string; sum: string; md5: string }>(
      db,
      `select count(*)::text as n, sum(doubled)::text as sum, md5(string_agg(e::text, ',' order by id)) as md5 from entries e`,
    ),
    outbox: await sql(
      db,
      'select id, topic, key, value, published_at is not null as published from outbox_messages order by id',
    ),
    sequences: await sql(
      db,
      `select 'entries' as name, last_value::text, is_called from entries_id_seq union all select 'outbox', last_value::text, is_called from outbox_messages_id_seq`,
    ),
    migrations: await sql(db, 'select id, name, executed_at from mikro_orm_migrations order by id'),
  };
}

/** Each service's data where `databases` says, opened as a service opens it (its migrations up). */
async function snapshot(databases: PgliteDatabase[]) {
  return withDatabases(databases, async (dbs) => {
    const seen = [];
    for (const db of dbs) seen.push(await snapshotOf(db));
    // The next id of each: where the legacy sequence was, plus one.
    const next = [];
    for (const db of dbs) {
      const [{ id }] = await sql<{ id: string }>(
        db,
        `insert into entries (user_id, amount) values (2, -1) returning id::text`,
      );
      const [{ id: outboxId }] = await sql<{ id: string }>(
        db,
        `insert into outbox_messages (topic, key) values ('topic', 'next') returning id::text`,
      );
      next.push({ entries: id, outbox: outboxId });
    }
    const triggered = await sql(dbs[1]!, 'delete from entries where id = 1').then(
      () => 'deleted',
      (error: Error) => error.message,
    );
    return { seen, next, triggered };
  });
}

const steps: Scenarios = {
  legacy: (pgDir, rows = '1000') => legacy(pgDir, Number(rows)),
  'snapshot-legacy': (pgDir, suffix = '') =>
    snapshot(SERVICES.map((service) => ({ dataDir: join(pgDir, `${service}${suffix}`) }))),
  /** Starts as the launcher does: the migration, then each service's database where it then is. */
  prepare: async (pgDir: string, fail?: string) => {
    const log: string[] = [];
    const databases = await prepareServiceDatabases(
      pgDir,
      SERVICES,
      (line) => log.push(line),
      fail === undefined
        ? undefined
        : (request) =>
            // In this process, so that it can stop after the second service: with an error, or killed.
            migrateLegacyClusters({
              ...request,
              afterService: (service) => {
                if (service !== SERVICES[1]) return;
                if (fail === 'kill') process.kill(process.pid, 'SIGKILL');
                throw new Error('injected after billing');
              },
            }),
    );
    return { log, databases };
  },
  snapshot: async (pgDir) =>
    snapshot((await prepareServiceDatabases(pgDir, SERVICES, () => undefined)) as PgliteDatabase[]),
};

// Served once the library is loaded: a microtask, so before this process reads its first request.
void persistence().then(({ serveScenarios }) => serveScenarios('legacy-pglite-scenarios.ts', steps));
