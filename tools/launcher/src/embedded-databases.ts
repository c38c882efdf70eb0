import { cpSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { PgliteDatabase, PgliteServer } from '@tollgate/persistence';
import {
  legacyClusters,
  moveLegacyClusters,
  retireLegacyClusters,
  type MigrateLegacy,
} from './legacy-pglite-layout';

const run = promisify(execFile);

/** The one PGlite cluster of a data directory's services, each in a schema named after it. */
export const SHARED_CLUSTER = 'platform';

/**
 * Each service's database, in the order of `services`, on PGlites of this thread
 * (`TOLLGATE_EMBEDDED_WORKER=0`: the services run on this thread too). On this thread, not in
 * PGlite's own worker: the services share one cluster, and only the in-thread connections keep
 * their sessions apart (pglite-socket runs every client on PGlite's one session).
 */
export async function startServiceDatabases(
  pgDir: string,
  services: readonly string[],
  log?: (line: string) => void,
): Promise<PgliteServer[]> {
  // Loaded only with TOLLGATE_EMBEDDED_WORKER=0: the bookkeeping worker loads the persistence library
  // (and MikroORM with it) itself, and the main thread need not hold a second copy.
  const { startPgliteServers } = await import('@tollgate/persistence');
  return startPgliteServers(await prepareServiceDatabases(pgDir, services, log), { thread: 'this' });
}

/**
 * Each service's database, in the order of `services`: one cluster, `<pgDir>/platform`, with a
 * schema per service (each instance past the first cost ~25–30 MB of WASM memory and file system).
 * A data directory from before (`<pgDir>/<service>`, one cluster each, tables in `public`) has its
 * data moved into that cluster first, once (legacy-pglite-layout.ts); should that fail, it is used
 * as it is and moved on the next start.
 *
 * Missing clusters are created. Creating one (initdb) is the slow part of a first start, so it runs
 * once into `<pgDir>/.initdb` and a cluster starts as a copy of that freshly initialised, cleanly
 * shut down one.
 */
export async function prepareServiceDatabases(
  pgDir: string,
  services: readonly string[],
  log: (line: string) => void = (line) => console.log(`  ${line}`),
  migrate?: MigrateLegacy,
): Promise<PgliteDatabase[]> {
  const legacy = legacyClusters(pgDir, services);
  let shared = legacy.length === 0;
  if (!shared && existsSync(join(pgDir, SHARED_CLUSTER, 'PG_VERSION'))) {
    // Stopped after the one cluster was complete and before the old ones were renamed.
    retireLegacyClusters(pgDir, legacy);
    shared = true;
  } else if (!shared) {
    const template = await initdbTemplate(pgDir);
    shared = await moveLegacyClusters({ pgDir, legacy, cluster: SHARED_CLUSTER, template, log, migrate });
  }
  const databases: PgliteDatabase[] = shared
    ? services.map((service) => ({ dataDir: join(pgDir, SHARED_CLUSTER), schema: service }))
    : services.map((service) => ({ dataDir: join(pgDir, service) }));
  for (const dataDir of new Set(databases.map(({ dataDir }) => dataDir))) {
    if (existsSync(join(dataDir, 'PG_VERSION'))) continue;
    const template = await initdbTemplate(pgDir);
    rmSync(dataDir, { recursive: true, force: true });
    cpSync(template, dataDir, { recursive: true });
  }
  return databases;
}

/** `<pgDir>/.initdb`, a freshly initialised cluster, made if it is not there yet. */
async function initdbTemplate(pgDir: string): Promise<string> {
  const template = join(pgDir, '.initdb');
  if (!existsSync(join(template, 'PG_VERSION'))) {
    const building = `${template}.${process.pid}`;
    rmSync(building, { recursive: true, force: true });
    mkdirSync(pgDir, { recursive: true });
    await initdb(building);
    renameSync(building, template);
  }
  return template;
}

const INITDB = `
const [pglite, dataDir] = process.argv.slice(1);
require(pglite).PGlite.create({ dataDir }).then((db) => db.close());
`;

/**
 * Creates a cluster in a child process: initdb's WASM memory and the allocator's arenas it grows
 * (over 500 MB at its peak) go with that process, where in this one much of it stayed resident
 * beside the platform.
 */
async function initdb(dataDir: string): Promise<void> {
  await run(process.execPath, ['-e', INITDB, require.resolve('@electric-sql/pglite'), dataDir]);
}
