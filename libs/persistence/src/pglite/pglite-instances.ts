import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { inspect } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { inThreadPgliteUrl, registerInThreadPglite, unregisterInThreadPglite } from './pglite-connection';

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
 * PGlite's file-system bundle (pglite.data, 6 MB: ICU data, extension libraries, the bootstrap files
 * initdb reads), read once per thread and handed to every instance on it. Given nothing, each instance
 * reads its own copy, and its in-memory file system keeps that whole buffer (its files are views of
 * it): 6 MB resident per instance. Sharing is safe because a running PostgreSQL only reads these files;
 * a file opened for writing ("w") is truncated first, which gives it a buffer of its own.
 */
let fsBundle: Promise<ArrayBuffer> | undefined;

/** A Blob whose `arrayBuffer()` is the thread's one bundle: PGlite only calls `arrayBuffer()` on it. */
class SharedFsBundle extends Blob {
  override arrayBuffer(): Promise<ArrayBuffer> {
    fsBundle ??= readFile(join(dirname(require.resolve('@electric-sql/pglite')), 'pglite.data')).then(
      (data) => data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer,
    );
    return fsBundle;
  }
}

/**
 * PGlite runs PostgreSQL in single-user mode, without autovacuum: a row updated or deleted stays
 * behind as a dead tuple, and its index entries with it, for good. The outbox's partial index on
 * unpublished rows then grows by one dead entry per event ever published, and every relay round
 * walks them: a relay round cost 1.5 ms of CPU after 5,000 events and 5.4 ms after 30,000, and stayed
 * at 1.1-1.2 ms with a VACUUM every 1,000 (bench/ANALYSIS.md, H39). So each instance checks now and
 * then, as autovacuum would, for tables with dead rows and vacuums (and analyzes) them.
 *
 * Nor is a table that only grows ever analyzed (usage_logs, the ledger): the planner would plan the
 * dashboard's log and statistics queries from no statistics at all. A table changed by at least
 * autovacuum's analyze threshold since its last analysis (50 rows + 10 % of its rows) is analyzed.
 */
export interface VacuumOptions {
  intervalMs: number;
  /** A table with at least this many dead rows is vacuumed. */
  deadRows: number;
}
const VACUUM: VacuumOptions = { intervalMs: 30_000, deadRows: 1_000 };

/** autovacuum_analyze_threshold and autovacuum_analyze_scale_factor's defaults. */
const ANALYZE_BASE_ROWS = 50;
const ANALYZE_SCALE = 0.1;

/**
 * Every `intervalMs`, vacuums `db`'s tables with dead rows and analyzes those changed enough since
 * their last analysis; the function returned stops it.
 */
export function vacuumAndAnalyze(
  db: PGlite,
  { intervalMs, deadRows }: VacuumOptions = VACUUM,
): () => Promise<void> {
  let running: Promise<void> | undefined;
  const round = async () => {
    const { rows } = await db.query<{ name: string; dead: boolean }>(
      `select format('%I.%I', schemaname, relname) as name, n_dead_tup >= $1 as dead
         from pg_stat_user_tables
        where n_dead_tup >= $1 or n_mod_since_analyze >= $2::float8 + $3::float8 * n_live_tup`,
      [deadRows, ANALYZE_BASE_ROWS, ANALYZE_SCALE],
    );
    // Waits, as every statement of PGlite's, for a transaction on the thread's connections to end.
    for (const { name, dead } of rows) await db.exec(dead ? `vacuum (analyze) ${name}` : `analyze ${name}`);
  };
  const timer = setInterval(() => {
    if (running !== undefined || db.closed) return;
    // A failure (a pglite-socket client inside a transaction) is left to the next round.
    running = round()
      .catch(() => undefined)
      .finally(() => {
        running = undefined;
      });
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}

/**
 * One PGlite on its data directory, on this thread's event loop, reached by a client on the same
 * thread without a socket (`inThreadPgliteStream`) and, unless started without one, by anyone else
 * through a loopback socket server (pglite-socket).
 */
export interface PgliteInstance {
  db: PGlite;
  /** `postgres://postgres:postgres@<host>:<port>/postgres`: its socket server's, or an in-thread one. */
  url: string;
  server: PGLiteSocketServer | undefined;
  stopVacuuming: () => Promise<void>;
}

export interface PgliteInstanceOptions {
  /**
   * Serve it on a loopback socket too (the default). pglite-socket runs every client's messages on
   * PGlite's one session, one message at a time: a client's SET, or its statements between another
   * one's, would be the other clients' too. Without it, the in-thread connections are the only way
   * in, and they keep each connection's session apart (pglite-connection.ts).
   */
  socket?: boolean;
}

export async function startPgliteInstance(
  dataDir: string,
  { socket = true }: PgliteInstanceOptions = {},
): Promise<PgliteInstance> {
  // PGlite creates only the last folder of its data directory.
  await mkdir(dirname(dataDir), { recursive: true });
  const db = await PGlite.create({
    dataDir,
    startParams: [...PGlite.defaultStartParams, ...MEMORY_PARAMS],
    fsBundle: new SharedFsBundle([]),
  });
  let server: PGLiteSocketServer | undefined;
  let url = inThreadPgliteUrl();
  if (socket) {
    server = new PGLiteSocketServer({ db, host: HOST, port: 0 });
    try {
      await server.start();
    } catch (error) {
      await db.close();
      throw error;
    }
    url = `postgres://postgres:postgres@${server.getServerConn()}/postgres`;
  }
  // A client on this thread (openDatabase, through its URL) skips the socket: pglite-connection.ts.
  registerInThreadPglite(url, db);
  return { db, url, server, stopVacuuming: vacuumAndAnalyze(db) };
}

/** Closing PGlite shuts PostgreSQL down cleanly (a checkpoint), so the next start needs no recovery. */
export async function stopPgliteInstance({ db, url, server, stopVacuuming }: PgliteInstance): Promise<void> {
  await stopVacuuming();
  unregisterInThreadPglite(url);
  await server?.stop();
  await db.close();
}

/**
 * Starts one instance per data directory, in order; if one fails, those started are stopped and the
 * error names its data directory.
 */
export async function startPgliteInstances(
  dataDirs: readonly string[],
  options: PgliteInstanceOptions = {},
): Promise<PgliteInstance[]> {
  const instances: PgliteInstance[] = [];
  for (const dataDir of dataDirs) {
    try {
      instances.push(await startPgliteInstance(dataDir, options));
    } catch (error) {
      for (const instance of instances) await stopPgliteInstance(instance).catch(() => undefined);
      throw new Error(`PGlite could not start on ${dataDir}: ${pgliteErrorMessage(error)}`);
    }
  }
  return instances;
}

export function pgliteErrorMessage(error: unknown): string {
  // Emscripten's file system throws plain objects (`{ errno }`), not Errors.
  return error instanceof Error ? error.message : inspect(error, { breakLength: Infinity });
}
