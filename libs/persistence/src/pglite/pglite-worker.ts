/**
 * The worker thread behind `startPgliteServers` (pglite-server.ts): one PGlite per data directory,
 * each behind its own loopback socket server, all on this thread's event loop, so that PostgreSQL's
 * WASM runs beside the main thread's, not on it.
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { inspect } from 'node:util';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface PgliteWorkerData {
  dataDirs: readonly string[];
}
/** Stop the instance at this index (its socket server, then PGlite itself). */
export interface CloseRequest {
  close: number;
}
export type WorkerReport =
  /** Every instance is up; its port, in the order of `dataDirs`. */
  | { started: number[] }
  /** One failed to start; those started before it are closed and the worker is exiting. */
  | { failed: string }
  | { closed: number; error?: string };

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

interface Instance {
  db: PGlite;
  server: PGLiteSocketServer;
  port: number;
}

async function start(dataDir: string): Promise<Instance> {
  // PGlite creates only the last folder of its data directory.
  await mkdir(dirname(dataDir), { recursive: true });
  const db = await PGlite.create({ dataDir, startParams: [...PGlite.defaultStartParams, ...MEMORY_PARAMS] });
  const server = new PGLiteSocketServer({ db, host: HOST, port: 0 });
  try {
    await server.start();
  } catch (error) {
    await db.close();
    throw error;
  }
  return { db, server, port: Number(server.getServerConn().split(':').pop()) };
}

/** Closing PGlite shuts PostgreSQL down cleanly (a checkpoint), so the next start needs no recovery. */
async function stop({ db, server }: Instance): Promise<void> {
  await server.stop();
  await db.close();
}

function message(error: unknown): string {
  // Emscripten's file system throws plain objects (`{ errno }`), not Errors.
  return error instanceof Error ? error.message : inspect(error, { breakLength: Infinity });
}

async function main(port: NonNullable<typeof parentPort>, { dataDirs }: PgliteWorkerData): Promise<void> {
  const report = (value: WorkerReport) => port.postMessage(value);
  const instances: Instance[] = [];
  for (const dataDir of dataDirs) {
    try {
      instances.push(await start(dataDir));
    } catch (error) {
      for (const instance of instances) await stop(instance).catch(() => undefined);
      report({ failed: `PGlite could not start on ${dataDir}: ${message(error)}` });
      port.close();
      return;
    }
  }
  let open = instances.length;
  const closing = new Set<number>();
  port.on('message', ({ close: index }: CloseRequest) => {
    const instance = instances[index];
    if (instance === undefined || closing.has(index)) return;
    closing.add(index);
    void stop(instance)
      .then(
        () => report({ closed: index }),
        (error: unknown) => report({ closed: index, error: message(error) }),
      )
      .finally(() => {
        // With nothing left to serve the port is closed and the thread ends: it never holds the process.
        if (--open === 0) port.close();
      });
  });
  report({ started: instances.map((instance) => instance.port) });
}

if (parentPort === null) throw new Error('pglite-worker runs as a worker thread (startPgliteServers)');
void main(parentPort, workerData as PgliteWorkerData);
