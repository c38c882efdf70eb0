import { cpSync, existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startPgliteServer, type PgliteServer } from '@tollgate/persistence';

/**
 * A PGlite database for one service under `<pgDir>/<service>`. Creating a cluster (initdb) is the
 * slow part of a first start, so it runs once into `<pgDir>/.initdb` and each service's directory
 * starts as a copy of that freshly initialised, cleanly shut down cluster.
 */
export async function startServiceDatabase(pgDir: string, service: string): Promise<PgliteServer> {
  const dataDir = join(pgDir, service);
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    const template = join(pgDir, '.initdb');
    if (!existsSync(join(template, 'PG_VERSION'))) {
      const building = `${template}.${process.pid}`;
      rmSync(building, { recursive: true, force: true });
      await (await startPgliteServer({ dataDir: building })).close();
      renameSync(building, template);
    }
    rmSync(dataDir, { recursive: true, force: true });
    cpSync(template, dataDir, { recursive: true });
  }
  return startPgliteServer({ dataDir });
}
