import { cp, mkdtemp, readFile, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { PGLITE_TEMPLATE_ENV } from '../service-harness/pglite-template';

/**
 * Integration tier: one PGlite server per Jest worker, because a PGlite server serves one
 * connection at a time and files running in parallel would otherwise starve each other. Their URLs
 * go out in TOLLGATE_TEST_PGLITE_URLS; `pglite-per-worker.ts` (a setup file) points each worker's
 * TOLLGATE_TEST_PGLITE_URL at its own (each file takes its own schema through the persistence lib's
 * test database factory). They must start here: PGlite loads its WASM with a dynamic import(), which
 * Jest's per-file sandbox refuses. Global setup and teardown share this process's globals.
 * The initdb template they are copied from goes out too, in TOLLGATE_TEST_PGLITE_TEMPLATE, for the
 * specs whose child processes start PGlite on data directories of their own (copyPgliteTemplate).
 */
export interface PgliteTestServer {
  dataRoot: string;
  instances: { db: PGlite; server: PGLiteSocketServer }[];
}

export const PGLITE_TEST_SERVER = Symbol.for('tollgate.jest.pgliteTestServer');
const HOST = '127.0.0.1';

export default async function globalSetup(globalConfig: { maxWorkers?: number }): Promise<void> {
  const workers = Math.min(4, Math.max(1, globalConfig.maxWorkers ?? 1));
  const dataRoot = await mkdtemp(join(tmpdir(), 'tollgate-jest-pglite-'));
  const template = await initialisedDataDir();
  const state: PgliteTestServer = { dataRoot, instances: [] };
  Object.assign(globalThis, { [PGLITE_TEST_SERVER]: state });
  const urls: string[] = [];
  for (let worker = 1; worker <= workers; worker++) {
    const dataDir = join(dataRoot, `pg-${worker}`);
    await cp(template, dataDir, { recursive: true });
    const db = await PGlite.create({ dataDir });
    // One connection at a time: PGlite is a single session; pools wait their turn.
    const server = new PGLiteSocketServer({ db, host: HOST, port: 0 });
    await server.start();
    state.instances.push({ db, server });
    urls.push(`postgres://postgres:postgres@${HOST}:${server.getServerConn().split(':').pop()}/postgres`);
  }
  process.env.TOLLGATE_TEST_PGLITE_URLS = urls.join(',');
  process.env.TOLLGATE_TEST_PGLITE_URL = urls[0];
  process.env[PGLITE_TEMPLATE_ENV] = template;
}

/**
 * An empty data directory just out of initdb, kept in the temp folder per PGlite version:
 * copying it takes well under a second, initdb several seconds on a busy machine.
 */
async function initialisedDataDir(): Promise<string> {
  const cached = join(tmpdir(), `tollgate-pglite-initdb-${await pgliteVersion()}`);
  if (await exists(cached)) return cached;
  const building = await mkdtemp(`${cached}.building-`);
  try {
    const db = await PGlite.create({ dataDir: join(building, 'pg') });
    await db.close();
    // Atomic: a concurrent run that got there first wins, and nobody sees a half-built copy.
    await rename(join(building, 'pg'), cached).catch(async (error: unknown) => {
      if (!(await exists(cached))) throw error;
    });
  } finally {
    await rm(building, { recursive: true, force: true });
  }
  return cached;
}

async function pgliteVersion(): Promise<string> {
  const packageJson = join(dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json');
  const { version } = JSON.parse(await readFile(packageJson, 'utf8')) as { version: string };
  return version;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
