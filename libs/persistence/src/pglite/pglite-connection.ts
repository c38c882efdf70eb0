import { Duplex } from 'node:stream';
import type { PGlite } from '@electric-sql/pglite';

/** Simple Query "ROLLBACK": what a connection closed inside its transaction leaves behind. */
const ROLLBACK = (() => {
  const sql = Buffer.from('ROLLBACK\0');
  const message = Buffer.alloc(5 + sql.length);
  message.write('Q', 0);
  message.writeInt32BE(4 + sql.length, 1);
  sql.copy(message, 5);
  return message;
})();
/** Terminate ('X'): the client is leaving; PGlite has no session to end. */
const TERMINATE = 0x58;

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
 */
export class PgliteConnection extends Duplex {
  private pending: Buffer[] = [];
  private flushScheduled = false;
  /** The exchanges in order: one at a time, each after the previous one's reply. */
  private exchanges: Promise<void> = Promise.resolve();
  /** Set while this connection holds PGlite's query lock (a transaction of its is open). */
  private releaseLock: (() => void) | undefined;

  constructor(
    private readonly db: PGlite,
    private readonly onClosed: (connection: PgliteConnection) => void = () => undefined,
  ) {
    super({ allowHalfOpen: false });
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
    const message = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    this.pending = [];
    this.exchanges = this.exchanges
      .then(() => this.exchange(message))
      .catch(
        (error: unknown) => void this.destroy(error instanceof Error ? error : new Error(String(error))),
      );
  }

  private async exchange(message: Buffer): Promise<void> {
    if (this.destroyed || message[0] === TERMINATE) return;
    await this.lock();
    const replies: Buffer[] = [];
    try {
      // The data handed to onRawData is a view of PGlite's buffer, reused by its next reply: copied.
      await this.db.execProtocolRawStream(message, { onRawData: (data) => replies.push(Buffer.from(data)) });
    } catch (error) {
      // PGlite itself failed (not an SQL error, which is a reply): the connection is unusable.
      this.unlock();
      this.destroy(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    if (!this.db.isInTransaction()) this.unlock();
    if (replies.length > 0 && !this.destroyed)
      this.push(replies.length === 1 ? replies[0] : Buffer.concat(replies));
  }

  /** Rolls back a transaction this connection left open, and releases the lock. */
  private async letGo(): Promise<void> {
    if (this.releaseLock === undefined) return;
    try {
      if (this.db.isInTransaction()) await this.db.execProtocolRawStream(ROLLBACK, { onRawData: () => 0 });
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
 * The PGlite instances started on this thread, by `host:port` of their socket server. On globalThis
 * under a registered symbol rather than in this module, so that every copy of the library a thread
 * loads sees the same ones.
 */
const REGISTRY = Symbol.for('tollgate.persistence.in-thread-pglite');
function registry(): Map<string, InThreadPglite> {
  const holder = globalThis as { [REGISTRY]?: Map<string, InThreadPglite> };
  return (holder[REGISTRY] ??= new Map());
}

/** Makes the PGlite served at `host:port` reachable without its socket from this thread. */
export function registerInThreadPglite(host: string, port: number, db: PGlite): void {
  registry().set(`${host}:${port}`, { db, connections: new Set() });
}

/** Forgets the PGlite at `host:port` and closes the connections still open to it. */
export function unregisterInThreadPglite(host: string, port: number): void {
  const key = `${host}:${port}`;
  const entry = registry().get(key);
  registry().delete(key);
  for (const connection of entry?.connections ?? []) connection.destroy();
}

/**
 * pg's `stream` option for a database URL whose PGlite runs on this thread: a function returning a
 * new in-thread connection; undefined for any other URL (a server, or a PGlite on another thread).
 */
export function inThreadPgliteStream(url: string): (() => Duplex) | undefined {
  const { hostname, port } = new URL(url);
  const entry = registry().get(`${hostname}:${port}`);
  if (entry === undefined) return undefined;
  return () => {
    const connection = new PgliteConnection(entry.db, (closed) => entry.connections.delete(closed));
    entry.connections.add(connection);
    return connection;
  };
}
