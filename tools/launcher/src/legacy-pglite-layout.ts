import { fork } from 'node:child_process';
import { cpSync, existsSync, renameSync, rmSync } from 'node:fs';
import { extname, join } from 'node:path';
import type {
  LegacyServiceReport,
  MigrateLegacyReply,
  MigrateLegacyRequest,
} from './legacy-pglite-migration';

/** What a legacy cluster `<pg>/<service>` is renamed to once its data is in the one cluster. */
export const MIGRATED_SUFFIX = '.migrated';
/** Where the one cluster is filled; renamed to `<pg>/platform` only once every service is in it. */
export const STAGING_CLUSTER = '.platform.migrating';

// Beside this file, compiled (.js) or, when a test runs the sources through a require hook, .ts.
const MIGRATION = join(__dirname, `legacy-pglite-migration${extname(__filename)}`);

/** The services of `services` with a cluster of their own in `pgDir`: the layout before one cluster. */
export function legacyClusters(pgDir: string, services: readonly string[]): string[] {
  return services.filter((service) => existsSync(join(pgDir, service, 'PG_VERSION')));
}

export type MigrateLegacy = (request: MigrateLegacyRequest) => Promise<LegacyServiceReport[]>;

export interface MoveLegacyOptions {
  pgDir: string;
  /** The services with a legacy cluster (`legacyClusters`). */
  legacy: readonly string[];
  /** The name of the one cluster in `pgDir`. */
  cluster: string;
  /** An initialised, cleanly shut down cluster that the one cluster starts as a copy of. */
  template: string;
  log: (line: string) => void;
  /** Runs the migration: by default in a child process (`migrateInChildProcess`). */
  migrate?: MigrateLegacy;
}

/**
 * Moves the legacy clusters' data into the one cluster, once. Crash-safe by the order of its steps:
 * the one cluster is filled under another name (`STAGING_CLUSTER`, begun afresh at every attempt),
 * closed cleanly, and only then renamed to `cluster` (one rename: the commit); until then nothing
 * uses it and the legacy clusters are untouched. After the commit each legacy cluster is renamed
 * `<service>.migrated` (kept, not removed: a way back, at the cost of its disk); a start that finds
 * `cluster` complete beside a legacy cluster (a kill between the two) finishes those renames.
 *
 * Answers whether the data was moved; on a failure it says why in the log and the legacy layout is
 * left as it was, to be used as before and moved again on the next start.
 */
export async function moveLegacyClusters({
  pgDir,
  legacy,
  cluster,
  template,
  log,
  migrate = migrateInChildProcess,
}: MoveLegacyOptions): Promise<boolean> {
  const staging = join(pgDir, STAGING_CLUSTER);
  const names = legacy.join(', ');
  log(
    `PGlite: ${pgDir} has a database per service (${names}), the layout before one shared cluster; ` +
      `moving their data into one (${join(pgDir, cluster)}), once: this uses ~80 MB less memory from now on.`,
  );
  const started = Date.now();
  let moved: LegacyServiceReport[];
  try {
    rmSync(staging, { recursive: true, force: true });
    cpSync(template, staging, { recursive: true });
    moved = await migrate({ pgDir, services: legacy, target: staging });
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    log(
      `PGlite: could not move the databases (${error instanceof Error ? error.message : String(error)}); ` +
        `the platform runs on them as they are, and the next start tries again.`,
    );
    return false;
  }
  rmSync(join(pgDir, cluster), { recursive: true, force: true });
  renameSync(staging, join(pgDir, cluster));
  const kept = retireLegacyClusters(pgDir, legacy);
  const tables = moved.reduce((sum, { tables }) => sum + tables, 0);
  const rows = moved.reduce((sum, { rows }) => sum + rows, 0);
  log(
    `PGlite: moved ${names} (${tables} tables, ${rows.toLocaleString('en')} rows) into ` +
      `${join(pgDir, cluster)} in ${((Date.now() - started) / 1000).toFixed(1)} s. The old copies are kept ` +
      `in ${kept.join(', ')}: nothing uses them any more, delete them once the platform runs as it should.`,
  );
  return true;
}

/**
 * Renames each legacy cluster `<service>.migrated` (another suffix if that exists already), and
 * answers the new paths. Only once its data is in the one cluster, which is then complete.
 */
export function retireLegacyClusters(pgDir: string, legacy: readonly string[]): string[] {
  return legacy.map((service) => {
    let retired = join(pgDir, `${service}${MIGRATED_SUFFIX}`);
    for (let n = 2; existsSync(retired); n++) retired = join(pgDir, `${service}${MIGRATED_SUFFIX}.${n}`);
    renameSync(join(pgDir, service), retired);
    return retired;
  });
}

/**
 * Runs `migrateLegacyClusters` in a child process: PostgreSQL's WASM heaps of the five clusters it
 * opens (one at a time beside the target) and the allocator arenas they grow go with that process
 * rather than staying in the platform's resident memory, as initdb's do. The child ends if this
 * process does (its IPC channel closes).
 */
export function migrateInChildProcess(request: MigrateLegacyRequest): Promise<LegacyServiceReport[]> {
  return new Promise((resolve, reject) => {
    const child = fork(MIGRATION, [], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'json',
    });
    let reply: MigrateLegacyReply | undefined;
    child.once('message', (message: MigrateLegacyReply) => (reply = message));
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (reply !== undefined && 'moved' in reply) resolve(reply.moved);
      else if (reply !== undefined) reject(new Error(reply.failed));
      else reject(new Error(`its process ended (${signal ?? `code ${code}`}) before it finished`));
    });
    child.send(request);
  });
}
