import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { withSchema } from '../database/database-url';
import type { CloseRequest, PgliteWorkerData, WorkerReport } from './pglite-worker';

export interface PgliteServer {
  /** `postgres://postgres:postgres@<host>:<port>/postgres`, with `?schema=<name>` when it has one. */
  url: string;
  close(): Promise<void>;
}

/**
 * A database to serve: a PGlite data directory, and optionally a schema of its own in it. Entries
 * naming the same data directory share one PGlite (one cluster, ~25–30 MB less per instance saved),
 * each in its schema: only on the caller's thread (`thread: 'this'`), where the in-thread connections
 * keep their sessions apart.
 */
export interface PgliteDatabase {
  dataDir: string;
  schema?: string;
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
   * a socket: `openDatabase({ embedded: true })` on this thread talks to PGlite in memory
   * (pglite-connection.ts). No socket server is started then, and the URLs answer nowhere else.
   */
  thread?: 'worker' | 'this';
}

/**
 * Runs one PGlite per data directory (separate clusters, nothing shared), each behind its own
 * loopback socket, all in ONE worker thread, so services talk to them through `pg` like to any
 * server; or, with `thread: 'this'`, on this thread without sockets, where several entries may share
 * one data directory, each in its own schema. PGlite executes every query synchronously in WASM: on the main thread a bookkeeping
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
  databases: readonly (string | PgliteDatabase)[],
  { thread = 'worker' }: PgliteServersOptions = {},
): Promise<PgliteServer[]> {
  const entries = databases.map((entry) => (typeof entry === 'string' ? { dataDir: entry } : entry));
  if (thread === 'this') return startInThisThread(entries);
  const dataDirs = entries.map(({ dataDir }) => dataDir);
  if (new Set(dataDirs).size !== dataDirs.length)
    throw new Error(
      "PGlite's data directories can be shared by schemas only on this thread (thread: 'this'): " +
        'pglite-socket runs every connection on its one session',
    );
  const servers = await startInWorker(dataDirs);
  return servers.map((server, index) => {
    const schema = entries[index]!.schema;
    return schema === undefined ? server : { ...server, url: withSchema(server.url, schema) };
  });
}

async function startInWorker(dataDirs: readonly string[]): Promise<PgliteServer[]> {
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

async function startInThisThread(entries: readonly PgliteDatabase[]): Promise<PgliteServer[]> {
  // Loaded here only: a caller that runs PGlite in a worker never loads PostgreSQL's WASM itself.
  const { startPgliteInstances, stopPgliteInstance, pgliteErrorMessage } = await import('./pglite-instances');
  const dataDirs = [...new Set(entries.map(({ dataDir }) => dataDir))];
  // No socket server: nothing but this thread's in-thread connections reaches them.
  const instances = await startPgliteInstances(dataDirs, { socket: false });
  const users = instances.map(
    (_, index) => entries.filter(({ dataDir }) => dataDir === dataDirs[index]).length,
  );
  const stopping: (Promise<void> | undefined)[] = instances.map(() => undefined);
  return entries.map(({ dataDir, schema }) => {
    const index = dataDirs.indexOf(dataDir);
    const instance = instances[index]!;
    let closing: Promise<void> | undefined;
    return {
      url: schema === undefined ? instance.url : withSchema(instance.url, schema),
      // The instance stops when the last of the databases on it is closed.
      close: () =>
        (closing ??= (async () => {
          if (--users[index]! > 0) return;
          stopping[index] ??= stopPgliteInstance(instance).catch((error: unknown) => {
            throw new Error(`PGlite on ${dataDir} did not close cleanly: ${pgliteErrorMessage(error)}`);
          });
          await stopping[index];
        })()),
    };
  });
}
