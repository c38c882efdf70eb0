import type { MessagePort } from 'node:worker_threads';
import type { KvStore, RateLimitResult, ReserveResult } from '../port/kv-store.port';

/** The KvStore operations that cross the bridge: every method but close. */
export type KvOperation = Exclude<keyof KvStore, 'close'>;

/** Every operation a host serves: a request naming anything else is refused. */
export const KV_OPERATIONS: ReadonlySet<string> = new Set<KvOperation>([
  'get',
  'set',
  'setIfAbsent',
  'take',
  'del',
  'ttl',
  'incr',
  'hit',
  'reserve',
  'settle',
  'release',
  'outstanding',
]);

export interface KvRequest {
  id: number;
  op: KvOperation;
  args: unknown[];
}

/** An error as it crosses threads: its class name (for the built-in ones) and message. */
export interface KvWireError {
  name: string;
  message: string;
}

export type KvReply = { reply: number; value: unknown } | { reply: number; error: KvWireError };

const BUILT_IN_ERRORS: Record<string, new (message: string) => Error> = { TypeError, RangeError };

/**
 * The key-value store of a thread that does not own the platform's store: each operation is a
 * request to the thread that does (`serveKvStore`) over `port`, answered with its result or its
 * error (same message, and same class for TypeError and RangeError). Requests of one turn of the
 * event loop travel as one message. `close` closes the port, never the store it is served from.
 */
export class BridgedKvStore implements KvStore {
  private readonly pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (e: Error) => void }
  >();
  private queued: KvRequest[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly port: MessagePort) {
    port.on('message', (replies: KvReply[]) => {
      for (const reply of replies) this.receive(reply);
    });
    port.once('close', () => this.failPending());
  }

  get(key: string): Promise<string | null> {
    return this.call('get', key) as Promise<string | null>;
  }

  set(key: string, value: string, ttlMs?: number): Promise<void> {
    return this.call('set', ...(ttlMs === undefined ? [key, value] : [key, value, ttlMs])) as Promise<void>;
  }

  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    return this.call('setIfAbsent', key, value, ttlMs) as Promise<boolean>;
  }

  take(key: string): Promise<string | null> {
    return this.call('take', key) as Promise<string | null>;
  }

  del(key: string): Promise<void> {
    return this.call('del', key) as Promise<void>;
  }

  ttl(key: string): Promise<number> {
    return this.call('ttl', key) as Promise<number>;
  }

  incr(key: string, ttlMs: number, by?: number): Promise<number> {
    return this.call('incr', ...(by === undefined ? [key, ttlMs] : [key, ttlMs, by])) as Promise<number>;
  }

  hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    return this.call('hit', key, limit, windowMs) as Promise<RateLimitResult>;
  }

  reserve(
    account: string,
    reservationId: string,
    amount: number,
    available: number,
    ttlMs: number,
  ): Promise<ReserveResult> {
    return this.call('reserve', account, reservationId, amount, available, ttlMs) as Promise<ReserveResult>;
  }

  settle(account: string, reservationId: string, actualAmount: number, holdMs: number): Promise<boolean> {
    return this.call('settle', account, reservationId, actualAmount, holdMs) as Promise<boolean>;
  }

  release(account: string, reservationId: string): Promise<void> {
    return this.call('release', account, reservationId) as Promise<void>;
  }

  outstanding(account: string): Promise<number> {
    return this.call('outstanding', account) as Promise<number>;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    this.port.close();
    this.failPending();
  }

  private call(op: KvOperation, ...args: unknown[]): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('the key-value store bridge is closed'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.queued.push({ id, op, args });
      if (this.queued.length === 1) queueMicrotask(this.flush);
    });
  }

  private readonly flush = (): void => {
    if (this.queued.length === 0 || this.closed) return;
    const batch = this.queued;
    this.queued = [];
    this.port.postMessage(batch);
  };

  private receive(reply: KvReply): void {
    const pending = this.pending.get(reply.reply);
    if (!pending) return;
    this.pending.delete(reply.reply);
    if ('error' in reply) {
      const error = new (BUILT_IN_ERRORS[reply.error.name] ?? Error)(reply.error.message);
      pending.reject(error);
    } else {
      pending.resolve(reply.value);
    }
  }

  private failPending(): void {
    for (const { reject } of this.pending.values()) reject(new Error('the key-value store bridge is closed'));
    this.pending.clear();
  }
}
