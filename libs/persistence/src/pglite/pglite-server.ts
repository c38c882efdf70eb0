import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface PgliteServer {
  /** `postgres://postgres:postgres@127.0.0.1:<port>/postgres` */
  url: string;
  close(): Promise<void>;
}

const HOST = '127.0.0.1';

/**
 * PostgreSQL zeroes its shared buffers at start, and a WASM memory never gives pages back: at the
 * default 128 MB every instance kept about 155 MB resident however small its data (four of them made
 * most of embedded mode's 1 GB). 8 MB holds an embedded service's working set; reads past it come
 * from the OS page cache. 8 MB rather than 16 took the idle platform from ~400 to ~355 MB at no CPU
 * per call the bench could tell apart. Measured in bench/ANALYSIS.md, "Embedded memory" and
 * "PGlite's shared buffers at 8 MB".
 */
const MEMORY_PARAMS = ['-c', 'shared_buffers=8MB'];

/**
 * Runs PostgreSQL compiled to WASM (PGlite) in this process, on `dataDir`, behind a loopback
 * socket speaking the PostgreSQL protocol, so the service talks to it through `pg` like to any
 * server. It accepts one connection at a time: open it with `openDatabase({ embedded: true })`.
 *
 * PGlite loads its WASM through dynamic `import()`, which Jest's sandbox refuses: under Jest,
 * start it from `globalSetup` instead.
 */
export async function startPgliteServer({ dataDir }: { dataDir: string }): Promise<PgliteServer> {
  // PGlite creates only the last folder of its data directory.
  await mkdir(dirname(dataDir), { recursive: true });
  // Loaded on demand so that services on a PostgreSQL server never load the WASM build.
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const db = await PGlite.create({ dataDir, startParams: [...PGlite.defaultStartParams, ...MEMORY_PARAMS] });
  const server = new PGLiteSocketServer({ db, host: HOST, port: 0 });
  try {
    await server.start();
  } catch (error) {
    await db.close();
    throw error;
  }
  const port = Number(server.getServerConn().split(':').pop());
  return {
    url: `postgres://postgres:postgres@${HOST}:${port}/postgres`,
    close: async () => {
      await server.stop();
      await db.close();
    },
  };
}
