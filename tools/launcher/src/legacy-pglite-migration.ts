/**
 * Moves a data directory's clusters of the layout before one shared PGlite (`<pg>/<service>`, one
 * cluster per service, its tables in `public`) into a new cluster, each service in its own schema:
 * what `prepareServiceDatabases` then uses as `<pg>/platform`. Run in a child process of its own
 * (legacy-pglite-layout.ts): PostgreSQL's WASM heaps of the clusters it opens go with that process.
 *
 * For each service, in the new cluster: its objects are created in `public` from the legacy
 * catalog's own definitions (pg_get_*def, with an empty search_path, so every name is qualified as
 * it was), its rows copied table by table, each table in chunks of its heap's pages (COPY to and from
 * PGlite's `/dev/blob`), its sequences set where they were, the definitions read back and compared
 * with the legacy ones, and then `public` is renamed after the service and made again empty for the
 * next. Indexes, constraints and triggers are made after the rows are in, as pg_dump orders them.
 *
 * Only the kinds of objects Tollgate's migrations make are copied: tables (plain, stored or virtual
 * generated columns, serial sequences), sequences, constraints, indexes, trigger functions and
 * triggers. Anything else in `public` (a view, a type, an identity column, inheritance…) stops the
 * migration with its name, and the layout before stays as it is.
 */
import { PGlite } from '@electric-sql/pglite';
import { join } from 'node:path';

export interface LegacyServiceReport {
  service: string;
  tables: number;
  rows: number;
}

export interface MigrateLegacyOptions {
  /** The `pg` folder of the data directory. */
  pgDir: string;
  /** The services whose legacy cluster `<pgDir>/<service>` exists, in the order to move them. */
  services: readonly string[];
  /** A cluster to fill, already initialised (a copy of the initdb template) and not in use. */
  target: string;
  /** A table's rows are copied this many heap pages (8 kB each) at a time. */
  chunkPages?: number;
  /** Called after each service is in the target: for tests that stop a migration midway. */
  afterService?: (service: string) => void | Promise<void>;
}

const START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=8MB'];
/** 32 MB of a table's heap in one COPY blob (bigger rows out of line in TOAST come on top). */
const CHUNK_PAGES = 4096;

export async function migrateLegacyClusters({
  pgDir,
  services,
  target,
  chunkPages = CHUNK_PAGES,
  afterService,
}: MigrateLegacyOptions): Promise<LegacyServiceReport[]> {
  const to = await PGlite.create({ dataDir: target, startParams: START_PARAMS });
  const reports: LegacyServiceReport[] = [];
  try {
    for (const service of services) {
      const from = await PGlite.create({ dataDir: join(pgDir, service), startParams: START_PARAMS });
      try {
        reports.push(await moveService(from, to, service, chunkPages));
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(`moving ${service}'s database: ${reason}`, { cause: error });
      } finally {
        await from.close();
      }
      await afterService?.(service);
    }
  } finally {
    await to.close();
  }
  return reports;
}

async function moveService(
  from: PGlite,
  to: PGlite,
  service: string,
  chunkPages: number,
): Promise<LegacyServiceReport> {
  // Every name in the definitions read and written is qualified: `public.<name>`.
  await from.exec(`set search_path = ''`);
  await to.exec(`set search_path = ''`);
  await from.exec('begin isolation level repeatable read read only');
  try {
    const schema = await describePublic(from);
    await to.exec('begin');
    for (const statement of schema.beforeRows) await to.exec(statement);
    let rows = 0;
    for (const table of schema.tables) rows += await copyRows(from, to, table, chunkPages);
    for (const sequence of schema.sequences) {
      const [position] = (
        await from.query<{ last_value: string; is_called: boolean }>(
          `select last_value::text, is_called from public.${ident(sequence)}`,
        )
      ).rows;
      await to.query(`select pg_catalog.setval($1::regclass, $2::bigint, $3)`, [
        `public.${ident(sequence)}`,
        position!.last_value,
        position!.is_called,
      ]);
    }
    for (const statement of schema.afterRows) await to.exec(statement);

    const copied = await describePublic(to);
    const differs = (['beforeRows', 'afterRows'] as const).find(
      (part) => JSON.stringify(copied[part]) !== JSON.stringify(schema[part]),
    );
    if (differs !== undefined)
      throw new Error(`the copied definitions differ from the original ones (${differs})`);
    for (const table of schema.tables) {
      const count = async (db: PGlite) =>
        (await db.query<{ n: string }>(`select count(*)::text as n from public.${ident(table.name)}`))
          .rows[0]!.n;
      const [before, after] = [await count(from), await count(to)];
      if (before !== after) throw new Error(`${table.name} has ${after} rows, not ${before}`);
    }
    await to.exec(`alter schema public rename to ${ident(service)}`);
    // As initdb makes it (PostgreSQL 15 on), for the next service's objects.
    await to.exec(
      'create schema public authorization pg_database_owner; grant usage on schema public to public',
    );
    await to.exec('commit');
    return { service, tables: schema.tables.length, rows };
  } catch (error) {
    if (to.isInTransaction()) await to.exec('rollback');
    throw error;
  } finally {
    await from.exec('rollback');
  }
}

interface TableToCopy {
  name: string;
  /** Its columns that take values (not generated ones). */
  columns: string[];
}

interface PublicSchema {
  /** Functions, sequences, tables and sequence ownership: what the rows go into. */
  beforeRows: string[];
  /** Constraints, indexes and triggers. */
  afterRows: string[];
  tables: TableToCopy[];
  sequences: string[];
}

const ident = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/** What `public` holds, as the statements that make it again; refuses kinds it does not copy. */
async function describePublic(db: PGlite): Promise<PublicSchema> {
  const unsupported = await db.query<{ what: string }>(`
    select format('%s %s', case c.relkind when 'v' then 'view' when 'm' then 'materialized view'
      when 'p' then 'partitioned table' when 'f' then 'foreign table' when 'c' then 'type' else c.relkind::text end,
      c.relname) as what
      from pg_catalog.pg_class c
     where c.relnamespace = 'public'::regnamespace and c.relkind not in ('r', 'S', 'i')
    union all
    select format('type %s', t.typname) from pg_catalog.pg_type t
     where t.typnamespace = 'public'::regnamespace and t.typrelid = 0 and t.typelem = 0
       and not exists (select 1 from pg_catalog.pg_type a where a.typarray = t.oid)
    union all
    select format('identity column %s.%s', c.relname, a.attname) from pg_catalog.pg_attribute a
      join pg_catalog.pg_class c on c.oid = a.attrelid
     where c.relnamespace = 'public'::regnamespace and a.attidentity <> '' and not a.attisdropped
    union all
    select format('inheritance of %s', c.relname) from pg_catalog.pg_inherits i
      join pg_catalog.pg_class c on c.oid = i.inhrelid where c.relnamespace = 'public'::regnamespace
    union all
    select format('%s %s', case p.prokind when 'a' then 'aggregate' when 'w' then 'window function'
      else 'procedure' end, p.proname) from pg_catalog.pg_proc p
     where p.pronamespace = 'public'::regnamespace and p.prokind <> 'f'
    union all
    select format('rule %s', r.rulename) from pg_catalog.pg_rewrite r
      join pg_catalog.pg_class c on c.oid = r.ev_class
     where c.relnamespace = 'public'::regnamespace and c.relkind = 'r'
    union all
    select format('policy %s', p.polname) from pg_catalog.pg_policy p
      join pg_catalog.pg_class c on c.oid = p.polrelid where c.relnamespace = 'public'::regnamespace
    union all
    select format('extension %s', e.extname) from pg_catalog.pg_extension e
     where e.extnamespace = 'public'::regnamespace`);
  if (unsupported.rows.length > 0)
    throw new Error(
      `it holds what this migration does not copy: ${unsupported.rows.map(({ what }) => what).join(', ')}`,
    );

  const functions = await db.query<{ def: string }>(`
    select pg_catalog.pg_get_functiondef(p.oid) as def from pg_catalog.pg_proc p
     where p.pronamespace = 'public'::regnamespace order by p.proname, p.oid::regprocedure::text`);
  const sequences = await db.query<{ name: string; def: string }>(`
    select c.relname as name, format('create sequence public.%I as %s increment by %s minvalue %s maxvalue %s start with %s cache %s %s',
             c.relname, pg_catalog.format_type(s.seqtypid, null), s.seqincrement, s.seqmin, s.seqmax, s.seqstart,
             s.seqcache, case when s.seqcycle then 'cycle' else 'no cycle' end) as def
      from pg_catalog.pg_sequence s join pg_catalog.pg_class c on c.oid = s.seqrelid
     where c.relnamespace = 'public'::regnamespace order by c.relname`);
  const tables = await db.query<{ name: string; columns: string[] | null; copied: string[] | null }>(`
    select c.relname as name,
           array_agg(format('%I %s%s%s', a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod),
             case when a.attcollation <> t.typcollation then format(' collate %s', a.attcollation::regcollation) else '' end,
             case a.attgenerated when 's' then format(' generated always as (%s) stored', pg_catalog.pg_get_expr(d.adbin, d.adrelid))
               when 'v' then format(' generated always as (%s) virtual', pg_catalog.pg_get_expr(d.adbin, d.adrelid))
               else coalesce(' default ' || pg_catalog.pg_get_expr(d.adbin, d.adrelid), '') end)
             order by a.attnum) filter (where a.attnum > 0) as columns,
           array_agg(format('%I', a.attname) order by a.attnum) filter (where a.attnum > 0 and a.attgenerated = '') as copied
      from pg_catalog.pg_class c
      left join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      left join pg_catalog.pg_type t on t.oid = a.atttypid
      left join pg_catalog.pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
     where c.relnamespace = 'public'::regnamespace and c.relkind = 'r'
     group by c.relname order by c.relname`);
  const owned = await db.query<{ def: string }>(`
    select format('alter sequence public.%I owned by public.%I.%I', s.relname, t.relname, a.attname) as def
      from pg_catalog.pg_depend d
      join pg_catalog.pg_class s on s.oid = d.objid and s.relkind = 'S'
      join pg_catalog.pg_class t on t.oid = d.refobjid
      join pg_catalog.pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
     where d.classid = 'pg_catalog.pg_class'::regclass and d.refclassid = 'pg_catalog.pg_class'::regclass
       and d.deptype = 'a' and s.relnamespace = 'public'::regnamespace order by s.relname`);
  // Not-null constraints first (a primary key would otherwise make its own), foreign keys last.
  const constraints = await db.query<{ def: string }>(`
    select format('alter table only public.%I add constraint %I %s', c.relname, k.conname,
             pg_catalog.pg_get_constraintdef(k.oid)) as def
      from pg_catalog.pg_constraint k join pg_catalog.pg_class c on c.oid = k.conrelid
     where k.connamespace = 'public'::regnamespace and k.contype <> 'f'
     order by array_position(array['n', 'c', 'p', 'u', 'x']::"char"[], k.contype), c.relname, k.conname`);
  const indexes = await db.query<{ def: string }>(`
    select pg_catalog.pg_get_indexdef(i.indexrelid) as def from pg_catalog.pg_index i
      join pg_catalog.pg_class x on x.oid = i.indexrelid
     where x.relnamespace = 'public'::regnamespace
       and not exists (select 1 from pg_catalog.pg_constraint k where k.conindid = i.indexrelid and k.contype in ('p', 'u', 'x'))
     order by x.relname`);
  const foreignKeys = await db.query<{ def: string }>(`
    select format('alter table only public.%I add constraint %I %s', c.relname, k.conname,
             pg_catalog.pg_get_constraintdef(k.oid)) as def
      from pg_catalog.pg_constraint k join pg_catalog.pg_class c on c.oid = k.conrelid
     where k.connamespace = 'public'::regnamespace and k.contype = 'f' order by c.relname, k.conname`);
  const triggers = await db.query<{ def: string }>(`
    select pg_catalog.pg_get_triggerdef(g.oid) as def from pg_catalog.pg_trigger g
      join pg_catalog.pg_class c on c.oid = g.tgrelid
     where c.relnamespace = 'public'::regnamespace and not g.tgisinternal order by c.relname, g.tgname`);
  const defs = (result: { rows: { def: string }[] }) => result.rows.map(({ def }) => def);

  return {
    beforeRows: [
      ...defs(functions),
      ...defs(sequences),
      ...tables.rows.map(
        ({ name, columns }) => `create table public.${ident(name)} (${(columns ?? []).join(', ')})`,
      ),
      ...defs(owned),
    ],
    afterRows: [...defs(constraints), ...defs(indexes), ...defs(foreignKeys), ...defs(triggers)],
    tables: tables.rows.map(({ name, copied }) => ({ name, columns: copied ?? [] })),
    sequences: sequences.rows.map(({ name }) => name),
  };
}

/**
 * Copies a table's rows a chunk of its heap's pages at a time (a scan of a range of ctids), so that
 * one COPY blob holds at most that much of the table, however big the table is.
 */
async function copyRows(from: PGlite, to: PGlite, table: TableToCopy, chunkPages: number): Promise<number> {
  if (table.columns.length === 0) return 0;
  const name = `public.${ident(table.name)}`;
  const columns = table.columns.join(', ');
  const [{ pages }] = (
    await from.query<{ pages: number }>(
      `select (pg_catalog.pg_relation_size($1::regclass) / current_setting('block_size')::int)::int as pages`,
      [name],
    )
  ).rows as [{ pages: number }];
  let rows = 0;
  for (let first = 0; first < pages; first += chunkPages) {
    const { blob } = await from.query(
      `copy (select ${columns} from only ${name} where ctid >= '(${first},0)'::tid and ctid < '(${first + chunkPages},0)'::tid) to '/dev/blob'`,
    );
    if (blob === undefined || blob.size === 0) continue;
    const copied = await to.query(`copy ${name} (${columns}) from '/dev/blob'`, [], { blob });
    rows += copied.affectedRows ?? 0;
  }
  return rows;
}

/** What the parent (legacy-pglite-layout.ts) sends the child process: the migration to run. */
export type MigrateLegacyRequest = Omit<MigrateLegacyOptions, 'afterService'>;
/** What the child process answers. */
export type MigrateLegacyReply = { moved: LegacyServiceReport[] } | { failed: string };

async function runAsChildProcess(): Promise<void> {
  // A parent gone (killed) leaves the migration unfinished: nothing uses its target, the next start
  // begins again, and this process must not go on writing beside it.
  const abandoned = () => process.exit(1);
  process.once('disconnect', abandoned);
  const request = await new Promise<MigrateLegacyRequest>((resolve) => process.once('message', resolve));
  let reply: MigrateLegacyReply;
  try {
    reply = { moved: await migrateLegacyClusters(request) };
  } catch (error) {
    reply = { failed: error instanceof Error ? error.message : String(error) };
  }
  process.send!(reply, () => {
    process.off('disconnect', abandoned);
    process.disconnect();
  });
}

if (require.main === module && process.send !== undefined) void runAsChildProcess();
