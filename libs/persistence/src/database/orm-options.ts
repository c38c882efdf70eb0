import type { AnyEntity, Constructor, EntityClass, EntitySchema, MigrationObject } from '@mikro-orm/core';
import { Migrator, type Migration } from '@mikro-orm/migrations';
import { PostgreSqlDriver, ReflectMetadataProvider, type Options } from '@mikro-orm/postgresql';
import { createLogger, type Logger } from '@tollgate/platform';
import { inThreadPgliteStream } from '../pglite/pglite-connection';
import { schemaOf, withoutSchema } from './database-url';

export type EntityDefinition = EntityClass<AnyEntity> | EntitySchema;
export type MigrationClass = Constructor<Migration>;

export interface DatabaseOptions {
  /** `postgres://user:password@host:port/database`, optionally `?schema=name`. */
  url: string;
  /** The service's entities, as classes (decorators) or `defineEntity`/`EntitySchema` objects. */
  entities: readonly EntityDefinition[];
  /** Applied in this order at start-up; each class name is its identity in `mikro_orm_migrations`. */
  migrations: readonly MigrationClass[];
  /** PGlite behind pglite-socket (one connection, no TLS) rather than a PostgreSQL server. */
  embedded: boolean;
  /** Log every query. */
  debug?: boolean;
  /** Connections to a PostgreSQL server (ignored when embedded). */
  poolSize?: number;
  /** The service's logger, for the driver's own warnings; a logger named `database` when omitted. */
  logger?: Logger;
}

const DEFAULT_POOL_SIZE = 10;
/** A query waiting this long for PGlite's single connection is almost surely the deadlock trap. */
const EMBEDDED_ACQUIRE_TIMEOUT_MS = 5_000;
/**
 * pglite-socket refuses a second connection instead of queueing it. An idle connection is handed
 * back after a second, and a refused one is retried, so several pools can take turns on one server
 * (the Jest workers sharing the test server do).
 */
const EMBEDDED_IDLE_TIMEOUT_MS = 1_000;
const EMBEDDED_RECONNECT_INTERVAL_MS = 100;
/**
 * A PGlite on this thread takes any number of connections (each holds its query lock only inside a
 * transaction), so there is nothing to hand back: the pool keeps its connection and looks for idle
 * ones rarely. With the socket's second and quarter second, each pool's reaper woke the bookkeeping
 * worker 4 times a second while the service had used its database within the second (always, under
 * load: 12 of the worker's ~20 wake-ups a second), and a service used less than once a second (its
 * outbox's 2 s poll, idle) opened a new connection each time (bench/ANALYSIS.md, H61).
 */
const IN_THREAD_IDLE_TIMEOUT_MS = 10 * 60_000;
const IN_THREAD_REAP_INTERVAL_MS = 60_000;
const SERVER_ACQUIRE_TIMEOUT_MS = 15_000;

/**
 * In knex's config, true when each connection keeps the statements it prepared (PostgreSQL; a PGlite
 * on this thread, whose connections prefix their statements' names): queryRows names its statements
 * there. Not behind pglite-socket, whose connections share one session that nobody resets.
 */
export const KEEPS_NAMED_STATEMENTS = 'tollgateKeepsNamedStatements';

/**
 * knex (under MikroORM) prints its warnings, e.g. "Connection Error: …" at every failed connect while
 * the database is away, with console.log: outside the service's JSON log lines and their redaction.
 * Handed its `log` hooks it writes through the service's logger instead.
 */
function driverLog(
  serviceLogger: Logger | undefined,
): Record<'debug' | 'warn' | 'error' | 'deprecate', (message: unknown) => void> {
  const logger = (serviceLogger ?? createLogger({ service: 'database', level: 'info' })).child({
    component: 'database',
  });
  const text = (message: unknown): string => (typeof message === 'string' ? message : String(message));
  return {
    debug: () => undefined,
    warn: (message) => logger.warn(text(message)),
    error: (message) => logger.error(text(message)),
    deprecate: (message) => logger.warn(text(message)),
  };
}

/** Migrations as MikroORM's `migrationsList` wants them: explicit classes, no file globbing. */
export function migrationList(migrations: readonly MigrationClass[]): MigrationObject[] {
  const seen = new Set<string>();
  return migrations.map((migration) => {
    const name = migration.name;
    if (name === '')
      throw new Error('A migration class must have a name: it is recorded in mikro_orm_migrations');
    if (seen.has(name)) throw new Error(`Migration "${name}" is listed twice`);
    seen.add(name);
    return { name, class: migration };
  });
}

export function buildOrmOptions(options: DatabaseOptions): Options {
  const schema = schemaOf(options.url);
  // A PGlite started on this thread (embedded mode's bookkeeping worker) is reached in memory, each
  // statement a call into it rather than a write and a read on a loopback socket.
  const stream = options.embedded ? inThreadPgliteStream(options.url) : undefined;
  return {
    driver: PostgreSqlDriver,
    clientUrl: withoutSchema(options.url),
    ...(schema === undefined ? {} : { schema }),
    entities: [...options.entities],
    metadataProvider: ReflectMetadataProvider,
    discovery: { disableDynamicFileAccess: true },
    extensions: [Migrator],
    migrations: {
      migrationsList: migrationList(options.migrations),
      transactional: true,
      allOrNothing: true,
      // The snapshot would be written into the working directory of whoever starts the service.
      snapshot: false,
      silent: options.debug !== true,
    },
    forceUtcTimezone: true,
    debug: options.debug === true,
    pool: options.embedded
      ? {
          min: 0,
          max: 1,
          acquireTimeoutMillis: EMBEDDED_ACQUIRE_TIMEOUT_MS,
          idleTimeoutMillis: stream ? IN_THREAD_IDLE_TIMEOUT_MS : EMBEDDED_IDLE_TIMEOUT_MS,
          reapIntervalMillis: stream ? IN_THREAD_REAP_INTERVAL_MS : EMBEDDED_IDLE_TIMEOUT_MS / 4,
          propagateCreateError: false,
          createRetryIntervalMillis: EMBEDDED_RECONNECT_INTERVAL_MS,
        }
      : {
          min: 0,
          max: options.poolSize ?? DEFAULT_POOL_SIZE,
          acquireTimeoutMillis: SERVER_ACQUIRE_TIMEOUT_MS,
        },
    driverOptions: {
      log: driverLog(options.logger),
      [KEEPS_NAMED_STATEMENTS]: !options.embedded || stream !== undefined,
      // A PGSSLMODE in the environment would otherwise make pg ask PGlite for TLS.
      ...(options.embedded ? { connection: { ssl: false, ...(stream && { stream }) } } : {}),
      // Raw SQL (migrations included) must land in the service's schema too.
      ...(schema === undefined ? {} : { searchPath: [schema] }),
    },
  };
}
