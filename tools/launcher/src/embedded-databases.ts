import { cpSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { PgliteServer } from '@tollgate/persistence';

const run = promisify(execFile);

/**
 * A PGlite database for each service under `<pgDir>/<service>`, all served from one worker thread
 * (`startPgliteServers`), in the order of `services`.
 */
export async function startServiceDatabases(
  pgDir: string,
  services: readonly string[],
): Promise<PgliteServer[]> {
  // Loaded only with TOLLGATE_EMBEDDED_WORKER=0: the bookkeeping worker loads the persistence library
  // (and MikroORM with it) itself, and the main thread need not hold a second copy.
  const { startPgliteServers } = await import('@tollgate/persistence');
  return startPgliteServers(await prepareServiceDatabases(pgDir, services));
}

/**
 * The data directory of each service's database, `<pgDir>/<service>` in the order of `services`,
 * created when missing. Creating a cluster (initdb) is the slow part of a first start, so it runs
 * once into `<pgDir>/.initdb` and each service's directory starts as a copy of that freshly
 * initialised, cleanly shut down cluster.
 */
export async function prepareServiceDatabases(pgDir: string, services: readonly string[]): Promise<string[]> {
  const dataDirs = services.map((service) => join(pgDir, service));
  for (const dataDir of dataDirs) {
    if (existsSync(join(dataDir, 'PG_VERSION'))) continue;
    const template = join(pgDir, '.initdb');
    if (!existsSync(join(template, 'PG_VERSION'))) {
      const building = `${template}.${process.pid}`;
      rmSync(building, { recursive: true, force: true });
      mkdirSync(pgDir, { recursive: true });
      await initdb(building);
      renameSync(building, template);
    }
    rmSync(dataDir, { recursive: true, force: true });
    cpSync(template, dataDir, { recursive: true });
  }
  return dataDirs;
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
