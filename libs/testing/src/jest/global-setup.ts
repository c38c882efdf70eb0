import { cp, mkdtemp, readFile, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/**
 * Integration tier: one PGlite server for the whole run, whose URL test files read from
 * TOLLGATE_TEST_PGLITE_URL (each file takes its own schema through the persistence lib's test
 * database factory). It must start here: PGlite loads its WASM with a dynamic import(), which
 * Jest's per-file sandbox refuses. Global setup and teardown share this process's globals.
 */
export interface PgliteTestServer {
  dataRoot: string;
  db: PGlite;
  server: PGLiteSocketServer;
}

export const PGLITE_TEST_SERVER = Symbol.for('tollgate.jest.pgliteTestServer');
const HOST = '127.0.0.1';

export default async function globalSetup(): Promise<void> {
  const dataRoot = await mkdtemp(join(tmpdir(), 'tollgate-jest-pglite-'));
  const dataDir = join(dataRoot, 'pg');
  await cp(await initialisedDataDir(), dataDir, { recursive: true });
  const db = await PGlite.create({ dataDir });
  // One connection at a time: PGlite is a single session; pools wait their turn.
  const server = new PGLiteSocketServer({ db, host: HOST, port: 0 });
  await server.start();
  const port = server.getServerConn().split(':').pop();
  process.env.TOLLGATE_TEST_PGLITE_URL = `postgres://postgres:postgres@${HOST}:${port}/postgres`;
  const state: PgliteTestServer = { dataRoot, db, server };
  Object.assign(globalThis, { [PGLITE_TEST_SERVER]: state });
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
