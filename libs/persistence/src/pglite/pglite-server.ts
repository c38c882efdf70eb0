import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { CloseRequest, PgliteWorkerData, WorkerReport } from './pglite-worker';

export interface PgliteServer {
  /** `postgres://postgres:postgres@127.0.0.1:<port>/postgres` */
  url: string;
  close(): Promise<void>;
}

const HOST = '127.0.0.1';
// Beside this file, compiled (.js) or, when a test runs the sources through a require hook, .ts.
const WORKER = join(__dirname, `pglite-worker${extname(__filename)}`);

/**
 * One PostgreSQL compiled to WASM (PGlite) on `dataDir`, behind a loopback socket speaking the
 * PostgreSQL protocol, run in a worker thread of its own: `startPgliteServers` for one.
 */
export async function startPgliteServer({ dataDir }: { dataDir: string }): Promise<PgliteServer> {
  const [server] = await startPgliteServers([dataDir]);
  return server!;
}

export interface PgliteServersOptions {
  /**
   * `worker` (the default): a worker thread of their own. `this`: on the calling thread's event
   * loop, for a caller that is itself a worker thread off the main one (embedded mode's bookkeeping
   * worker), whose services then reach their databases without a hop to another thread, and without
   * the socket: `openDatabase({ embedded: true })` on this thread talks to PGlite in memory
   * (pglite-connection.ts).
   */
  thread?: 'worker' | 'this';
}

/**
 * Runs one PGlite per data directory (separate databases, nothing shared), each behind its own
 * loopback socket, all in ONE worker thread, so services talk to them through `pg` like to any
 * server. PGlite executes every query synchronously in WASM: on the main thread a bookkeeping
 * transaction held every HTTP call queued behind it; in the worker it runs on the machine's other
 * core. One worker rather than one each: they share its thread, but every isolate costs memory.
 * Each server accepts one connection at a time: open it with `openDatabase({ embedded: true })`.
 *
 * Rejects, with the data directory named, if any of them fails to start; those already started are
 * closed first. `close()` shuts its instance down cleanly; when the last is closed the worker ends,
 * so it never keeps the process alive. A worker that dies after start-up (PostgreSQL aborting) is
 * an uncaught error of this process, as it was when PGlite ran on the main thread.
 */
export async function startPgliteServers(
  dataDirs: readonly string[],
  { thread = 'worker' }: PgliteServersOptions = {},
): Promise<PgliteServer[]> {
  if (thread === 'this') return startInThisThread(dataDirs);
  const worker = new Worker(WORKER, { workerData: { dataDirs } satisfies PgliteWorkerData });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const closed = new Map<number, (error?: string) => void>();

  const ports = await new Promise<number[]>((resolve, reject) => {
    const failed = (error: Error) => {
      worker.off('message', onReport);
      void exited.then(() => reject(error));
    };
    const onStartError = (error: Error) =>
      failed(new Error(`PGlite's worker failed while starting ${dataDirs.join(', ')}: ${error.message}`));
    const onEarlyExit = (code: number) =>
      failed(new Error(`PGlite's worker exited (code ${code}) before ${dataDirs.join(', ')} started`));
    function onReport(report: WorkerReport) {
      if ('started' in report) {
        worker.off('message', onReport).off('error', onStartError).off('exit', onEarlyExit);
        resolve(report.started);
      } else if ('failed' in report) {
        worker.off('error', onStartError).off('exit', onEarlyExit);
        failed(new Error(report.failed));
      }
    }
    worker.on('message', onReport).once('error', onStartError).once('exit', onEarlyExit);
  });

  worker.on('message', (report: WorkerReport) => {
    if ('closed' in report) closed.get(report.closed)?.(report.error);
  });
  // The worker gone (however it ended), nothing is left to close.
  let gone = false;
  void exited.then(() => {
    gone = true;
    for (const done of closed.values()) done();
  });

  let open = ports.length;
  return ports.map((port, index) => {
    let closing: Promise<void> | undefined;
    return {
      url: `postgres://postgres:postgres@${HOST}:${port}/postgres`,
      close: () =>
        (closing ??= (async () => {
          if (gone) return;
          const error = await new Promise<string | undefined>((resolve) => {
            closed.set(index, resolve);
            worker.postMessage({ close: index } satisfies CloseRequest);
          });
          if (--open === 0) await exited;
          if (error !== undefined)
            throw new Error(`PGlite on ${dataDirs[index]} did not close cleanly: ${error}`);
        })()),
    };
  });
}

async function startInThisThread(dataDirs: readonly string[]): Promise<PgliteServer[]> {
  // Loaded here only: a caller that runs PGlite in a worker never loads PostgreSQL's WASM itself.
  const { startPgliteInstances, stopPgliteInstance, pgliteErrorMessage } = await import('./pglite-instances');
  const instances = await startPgliteInstances(dataDirs);
  return instances.map((instance, index) => {
    let closing: Promise<void> | undefined;
    return {
      url: `postgres://postgres:postgres@${HOST}:${instance.port}/postgres`,
      close: () =>
        (closing ??= stopPgliteInstance(instance).catch((error: unknown) => {
          throw new Error(`PGlite on ${dataDirs[index]} did not close cleanly: ${pgliteErrorMessage(error)}`);
        })),
    };
  });
}
