import { Duplex } from 'node:stream';
import type { PGlite } from '@electric-sql/pglite';
import { assertIdentifier, schemaOf } from '../database/database-url';

/** A Simple Query message. */
function simpleQuery(sql: string): Buffer {
  const text = Buffer.from(`${sql}\0`);
  const message = Buffer.alloc(5 + text.length);
  message.write('Q', 0);
  message.writeInt32BE(4 + text.length, 1);
  text.copy(message, 5);
  return message;
}

/** What a connection closed inside its transaction leaves behind. */
const ROLLBACK = simpleQuery('ROLLBACK');

/**
 * What another connection may have left in the session, undone: DISCARD ALL but its DEALLOCATE ALL
 * and DISCARD PLANS. Each connection's prepared statements carry its own names (`prefixStatements`),
 * so they stay, with their generic plans: on a PGlite that several services share, DISCARD ALL
 * dropped every statement and every cached plan at each change of connection, which in embedded
 * mode's bookkeeping worker is every batch of every consumer (bench/ANALYSIS.md, H62).
 */
const SESSION_RESET = simpleQuery(
  'CLOSE ALL; SET SESSION AUTHORIZATION DEFAULT; RESET ALL; UNLISTEN *; SELECT pg_advisory_unlock_all(); DISCARD TEMP; DISCARD SEQUENCES',
);
/** Statements prepared by SQL's PREPARE (whose names are the SQL's, not the connection's), dropped. */
const DEALLOCATE_SQL_PREPARED = simpleQuery(
  "DO $$ DECLARE s record; BEGIN FOR s IN SELECT name FROM pg_prepared_statements WHERE from_sql LOOP EXECUTE format('DEALLOCATE %I', s.name); END LOOP; END $$",
);
const SQL_PREPARE = /\bprepare\b/i;

const PARSE = 0x50;
const BIND = 0x42;
const DESCRIBE = 0x44;
const CLOSE = 0x43;
const QUERY = 0x51;
const OF_STATEMENT = 0x53;

/**
 * `message` (a run of frontend messages) with every statement name in it (of Parse, Bind, and a
 * statement's Describe and Close) prefixed with `prefix`, so that two connections' statements of the
 * same name never meet in PGlite's one session; the unnamed statement is left as it is. `names` keeps
 * the connection's statements (to drop when it closes). Also says whether a Query or a Parse holds
 * SQL's PREPARE, whose statement cannot be renamed.
 */
function prefixStatements(
  message: Buffer,
  prefix: string,
  names: Set<string>,
): { message: Buffer; sqlPrepare: boolean } {
  let sqlPrepare = false;
  const parts: Buffer[] = [];
  let copied = 0;
  for (let offset = 0; offset + 5 <= message.length;) {
    const type = message[offset]!;
    const end = offset + 1 + message.readInt32BE(offset + 1);
    let at = -1;
    if (type === PARSE) {
      at = offset + 5;
      const text = message.indexOf(0, at) + 1;
      sqlPrepare ||= SQL_PREPARE.test(message.toString('latin1', text, message.indexOf(0, text)));
    } else if (type === BIND) at = message.indexOf(0, offset + 5) + 1;
    else if ((type === DESCRIBE || type === CLOSE) && message[offset + 5] === OF_STATEMENT) at = offset + 6;
    else if (type === QUERY) sqlPrepare ||= SQL_PREPARE.test(message.toString('latin1', offset + 5, end - 1));
    if (at >= 0 && message[at] !== 0) {
      const nameEnd = message.indexOf(0, at);
      const name = prefix + message.toString('utf8', at, nameEnd);
      if (type === PARSE) names.add(name);
      else if (type === CLOSE) names.delete(name);
      const renamed = Buffer.from(name);
      const header = Buffer.alloc(5);
      header[0] = type;
      header.writeInt32BE(end - offset - 1 + renamed.length - (nameEnd - at), 1);
      parts.push(message.subarray(copied, offset), header, message.subarray(offset + 5, at), renamed);
      parts.push(message.subarray(nameEnd, end));
      copied = end;
    }
    offset = end;
  }
  if (parts.length === 0) return { message, sqlPrepare };
  parts.push(message.subarray(copied));
  return { message: Buffer.concat(parts), sqlPrepare };
}
/** What follows the `count`-th ReadyForQuery ('Z') message of a run of backend messages. */
function afterReadyForQuery(replies: Buffer, count: number): Buffer {
  let offset = 0;
  for (let seen = 0; seen < count && offset + 5 <= replies.length;) {
    if (replies[offset] === READY_FOR_QUERY) seen++;
    offset += 1 + replies.readInt32BE(offset + 1);
  }
  return replies.subarray(offset);
}
const READY_FOR_QUERY = 0x5a;

/** Terminate ('X'): the client is leaving; PGlite has no session to end. */
const TERMINATE = 0x58;

/**
 * The connection whose session state each PGlite's one session holds (the last to run on it). On
 * globalThis, as the registry below, so that every copy of the library a thread loads sees it.
 */
const SESSION_OWNERS = Symbol.for('tollgate.persistence.pglite-session-owners');
const sessionOwners = ((globalThis as { [SESSION_OWNERS]?: WeakMap<PGlite, PgliteConnection> })[
  SESSION_OWNERS
] ??= new WeakMap());
/** The PGlites whose session holds a statement prepared by SQL's PREPARE: the next reset drops it. */
const SQL_PREPARED = Symbol.for('tollgate.persistence.pglite-sql-prepared');
const sqlPrepared = ((globalThis as { [SQL_PREPARED]?: WeakSet<PGlite> })[SQL_PREPARED] ??= new WeakSet());
/** Numbers the connections on this thread: each one's statement names begin with its own. */
const CONNECTIONS = Symbol.for('tollgate.persistence.pglite-connections');

/**
 * One PostgreSQL protocol connection to a PGlite on this thread, as the socket `pg.Client` talks
 * through (its `stream` option): what pg writes in one go (a query's Parse, Bind, Describe, Execute
 * and Sync) is handed to PGlite as one buffer, and PGlite's replies come back as one chunk. Over
 * pglite-socket the same query was five socket writes, a read and a `setImmediate` per chunk on the
 * server's side, five separate runs of PGlite's protocol loop, a socket write per reply and a read
 * back, all on the same thread.
 *
 * A connection holds PGlite's query lock from its first statement while a transaction of its is
 * open, so nothing else on the thread (another connection, a pglite-socket client) runs inside it;
 * closed by either side with a transaction open, it rolls that transaction back and lets go.
 *
 * PGlite has ONE backend session for all its connections (several services' schemas in one cluster,
 * in embedded mode). So a connection's session starts afresh, with its schema as its search_path,
 * whenever another connection used the session since its own last exchange: what `DISCARD ALL`
 * undoes (session settings, temporary tables, advisory locks, LISTEN, statements prepared by SQL's
 * PREPARE) and, with a schema, `SET search_path`. Nothing one connection sets outside a transaction
 * is seen by another; in exchange, a connection keeps its own session settings or advisory locks
 * only until another connection runs (knex and MikroORM use none of them beyond the search_path,
 * which is restored). Its named prepared statements (the protocol's, as pg's `name` makes them) it
 * keeps: their names carry the connection's number, and they are dropped when it closes.
 */
export class PgliteConnection extends Duplex {
  private pending: Buffer[] = [];
  private flushScheduled = false;
  /** The exchanges in order: one at a time, each after the previous one's reply. */
  private exchanges: Promise<void> = Promise.resolve();
  /** Set while this connection holds PGlite's query lock (a transaction of its is open). */
  private releaseLock: (() => void) | undefined;

  /** What puts the session back to this connection's: SESSION_RESET, then its search_path. */
  private readonly sessionReset: Buffer;
  /** How many Simple Queries `sessionReset` is: as many ReadyForQuery replies to cut off. */
  private readonly sessionResetQueries: number;
  /** What this connection's statement names begin with in the session. */
  private readonly statementPrefix: string;
  /** Its named statements in the session, dropped when it closes. */
  private readonly statements = new Set<string>();

  constructor(
    private readonly db: PGlite,
    private readonly onClosed: (connection: PgliteConnection) => void = () => undefined,
    /** Its search_path; PostgreSQL's default when omitted. */
    schema?: string,
  ) {
    super({ allowHalfOpen: false });
    const holder = globalThis as { [CONNECTIONS]?: number };
    this.statementPrefix = `c${(holder[CONNECTIONS] = (holder[CONNECTIONS] ?? 0) + 1)}_`;
    const reset = [SESSION_RESET];
    if (schema !== undefined)
      reset.push(simpleQuery(`SET search_path TO "${assertIdentifier(schema, 'Schema')}"`));
    this.sessionReset = Buffer.concat(reset);
    this.sessionResetQueries = reset.length;
  }

  // The part of net.Socket's surface that pg's Connection calls.
  connect(): this {
    process.nextTick(() => {
      if (!this.destroyed) this.emit('connect');
    });
    return this;
  }
  setNoDelay(): this {
    return this;
  }
  setKeepAlive(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }

  override _read(): void {
    // Replies are pushed as PGlite produces them.
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.pending.push(chunk);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      // pg writes a query's messages in one synchronous run: they go to PGlite together.
      queueMicrotask(() => this.flush());
    }
    callback();
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.flush();
    this.exchanges = this.exchanges.then(() => this.letGo());
    void this.exchanges.then(() => {
      this.push(null);
      callback();
    }, callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.pending = [];
    void this.exchanges
      .then(() => this.letGo())
      .finally(() => {
        this.onClosed(this);
        callback(error);
      });
  }

  private flush(): void {
    this.flushScheduled = false;
    if (this.pending.length === 0) return;
    let message = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    this.pending = [];
    let sqlPrepare = false;
    // A startup message (no type byte, its first byte that of its length, 0) names no statement.
    if (message[0] !== 0)
      ({ message, sqlPrepare } = prefixStatements(message, this.statementPrefix, this.statements));
    this.exchanges = this.exchanges
      .then(() => this.exchange(message, sqlPrepare))
      .catch(
        (error: unknown) => void this.destroy(error instanceof Error ? error : new Error(String(error))),
      );
  }

  private async exchange(message: Buffer, sqlPrepare: boolean): Promise<void> {
    if (this.destroyed || message[0] === TERMINATE) return;
    await this.lock();
    const replies: Buffer[] = [];
    // Holding the lock, no transaction is open: another connection's (or none) ended before this.
    const reset = sessionOwners.get(this.db) !== this;
    // The reset goes in the same call into PGlite as the connection's own messages, its replies cut
    // off before they reach pg (half the CPU of a call of its own); a startup message (no type byte,
    // its first byte that of its length, 0) is not preceded by anything.
    const together = reset && message[0] !== 0;
    const dropSqlPrepared = reset && sqlPrepared.delete(this.db);
    const sessionReset = dropSqlPrepared
      ? Buffer.concat([DEALLOCATE_SQL_PREPARED, this.sessionReset])
      : this.sessionReset;
    try {
      if (reset && !together) await this.db.execProtocolRawStream(sessionReset, { onRawData: () => 0 });
      if (reset) sessionOwners.set(this.db, this);
      // The data handed to onRawData is a view of PGlite's buffer, reused by its next reply: copied.
      await this.db.execProtocolRawStream(together ? Buffer.concat([sessionReset, message]) : message, {
        onRawData: (data) => replies.push(Buffer.from(data)),
      });
      if (sqlPrepare) sqlPrepared.add(this.db);
    } catch (error) {
      // PGlite itself failed (not an SQL error, which is a reply): the connection is unusable.
      this.unlock();
      this.destroy(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    if (!this.db.isInTransaction()) this.unlock();
    let reply = replies.length === 1 ? replies[0]! : Buffer.concat(replies);
    if (together) reply = afterReadyForQuery(reply, this.sessionResetQueries + (dropSqlPrepared ? 1 : 0));
    if (reply.length > 0 && !this.destroyed) this.push(reply);
  }

  /** Rolls back a transaction this connection left open, drops its statements, and releases the lock. */
  private async letGo(): Promise<void> {
    if (this.releaseLock === undefined && (this.statements.size === 0 || this.db.closed)) return;
    try {
      await this.lock();
      if (this.db.isInTransaction()) await this.db.execProtocolRawStream(ROLLBACK, { onRawData: () => 0 });
      if (this.statements.size > 0 && !this.db.closed) {
        // One query each: one whose Parse had failed does not exist, and its error ends only its query.
        const deallocate = [...this.statements].map((name) =>
          simpleQuery(`DEALLOCATE "${name.replaceAll('"', '""')}"`),
        );
        this.statements.clear();
        await this.db.execProtocolRawStream(Buffer.concat(deallocate), { onRawData: () => 0 });
      }
    } catch {
      // PGlite closed meanwhile: nothing of the session is left to undo.
    } finally {
      this.unlock();
    }
  }

  private lock(): Promise<void> {
    if (this.releaseLock !== undefined) return Promise.resolve();
    return new Promise<void>((locked, failed) => {
      this.db
        .runExclusive(
          () =>
            new Promise<void>((release) => {
              this.releaseLock = release;
              locked();
            }),
        )
        .catch(failed);
    });
  }

  private unlock(): void {
    const release = this.releaseLock;
    this.releaseLock = undefined;
    release?.();
  }
}

interface InThreadPglite {
  db: PGlite;
  connections: Set<PgliteConnection>;
}

/**
 * The PGlite instances started on this thread, by the `host:port` of their URL. On globalThis under
 * a registered symbol rather than in this module, so that every copy of the library a thread loads
 * sees the same ones.
 */
const REGISTRY = Symbol.for('tollgate.persistence.in-thread-pglite');
function registry(): Map<string, InThreadPglite> {
  const holder = globalThis as { [REGISTRY]?: Map<string, InThreadPglite> };
  return (holder[REGISTRY] ??= new Map());
}

const COUNTER = Symbol.for('tollgate.persistence.in-thread-pglite-count');
const keyOf = (url: string): string => {
  const { hostname, port } = new URL(url);
  return `${hostname}:${port}`;
};

/**
 * Makes `db` reachable from this thread, in memory, at `url` (its socket server's, or a URL no
 * socket answers: `inThreadPgliteUrl`).
 */
export function registerInThreadPglite(url: string, db: PGlite): void {
  registry().set(keyOf(url), { db, connections: new Set() });
}

/**
 * A URL for a PGlite reached only in memory, from this thread: its host is under `.invalid`, which
 * never resolves, so a client anywhere else fails to connect rather than reaching some server.
 */
export function inThreadPgliteUrl(): string {
  const holder = globalThis as { [COUNTER]?: number };
  const n = (holder[COUNTER] = (holder[COUNTER] ?? 0) + 1);
  return `postgres://postgres:postgres@pglite-${n}.in-thread.invalid/postgres`;
}
/** Forgets the PGlite at `url` and closes the connections still open to it. */
export function unregisterInThreadPglite(url: string): void {
  const key = keyOf(url);
  const entry = registry().get(key);
  registry().delete(key);
  for (const connection of entry?.connections ?? []) connection.destroy();
}

/**
 * pg's `stream` option for a database URL whose PGlite runs on this thread: a function returning a
 * new in-thread connection; undefined for any other URL (a server, or a PGlite on another thread).
 */
export function inThreadPgliteStream(url: string): (() => Duplex) | undefined {
  const entry = registry().get(keyOf(url));
  if (entry === undefined) return undefined;
  return () => {
    const connection = new PgliteConnection(
      entry.db,
      (closed) => entry.connections.delete(closed),
      schemaOf(url),
    );
    entry.connections.add(connection);
    return connection;
  };
}
