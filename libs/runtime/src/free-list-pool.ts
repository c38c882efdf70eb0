import { buildConnector, Client, Dispatcher, errors } from 'undici';

export type FreeListPoolOptions = Omit<Client.Options, 'connect'> & {
  /** Most connections kept to the origin; beyond them calls wait for one to be free. */
  connections: number;
  /** How to open a connection; undici's TCP/TLS connector (one for every connection) by default. */
  connect?: buildConnector.connector;
};

interface Waiting {
  options: Dispatcher.DispatchOptions;
  handler: Dispatcher.DispatchHandler;
}

/**
 * undici's Pool (one origin, keep-alive connections, calls waiting in order beyond the limit) that finds
 * a free connection in constant time. undici's Pool looks for one by walking every connection from the
 * first, twice per call (once to dispatch, once to know whether the pool is full): with N streams held
 * open, each new call walked N busy connections twice, so opening N streams cost O(N²) (3–4 % of relay's
 * and of the gateway's CPU while 3,000 streams opened; bench/ANALYSIS.md, H45). Here a connection that
 * can take a call is on a stack (the one freed last is used first: its socket is the least likely to
 * have hit the keep-alive timeout), and a busy one is not looked at until it says it is free ('drain').
 * The gateway's pools to its backends and relay's to its upstreams are of this class.
 */
export class FreeListPool extends Dispatcher {
  private readonly free: Client[] = [];
  /** Every connection of the pool, and whether it is on `free`. */
  private readonly clients = new Map<Client, { isFree: boolean }>();
  private readonly waiting: Waiting[] = [];
  private waitingHead = 0;
  private readonly connections: number;
  private readonly clientOptions: Client.Options;
  /** A call had to wait: 'drain' is emitted once none waits any more. */
  private full = false;
  private closed = false;
  private closing: Promise<void> | undefined;
  private noneWaiting: (() => void) | undefined;

  constructor(
    private readonly origin: string,
    { connections, connect, ...options }: FreeListPoolOptions,
  ) {
    super();
    this.connections = connections;
    // One connector for every connection, as undici's Pool has: TLS sessions are cached across them.
    this.clientOptions = { ...options, connect: connect ?? buildConnector({}) };
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    if (this.closed) return this.refuse(handler);
    if (this.waiting.length > this.waitingHead) {
      this.waiting.push({ options, handler });
      return false;
    }
    const client = this.takeFree() ?? this.open();
    if (client === undefined) {
      this.full = true;
      this.waiting.push({ options, handler });
      return false;
    }
    if (client.dispatch(options, handler)) this.putFree(client);
    return true;
  }

  override close(): Promise<void>;
  override close(callback: () => void): void;
  override close(callback?: () => void): Promise<void> | void {
    this.closing ??= this.closeAll();
    if (callback === undefined) return this.closing;
    void this.closing.then(callback);
  }

  override destroy(): Promise<void>;
  override destroy(error: Error | null): Promise<void>;
  override destroy(callback: () => void): void;
  override destroy(error: Error | null, callback: () => void): void;
  override destroy(
    errorOrCallback?: Error | null | (() => void),
    callback?: () => void,
  ): Promise<void> | void {
    const error = typeof errorOrCallback === 'function' ? null : (errorOrCallback ?? null);
    const done = typeof errorOrCallback === 'function' ? errorOrCallback : callback;
    this.closed = true;
    for (const { handler } of this.takeWaiting())
      failCall(handler, error ?? new errors.ClientDestroyedError());
    const destroyed = Promise.all([...this.clients.keys()].map((client) => client.destroy(error))).then(
      () => undefined,
    );
    if (done === undefined) return destroyed;
    void destroyed.then(done);
  }

  private takeFree(): Client | undefined {
    for (;;) {
      const client = this.free.pop();
      if (client === undefined) return undefined;
      const state = this.clients.get(client);
      if (state === undefined) continue;
      state.isFree = false;
      if (!client.closed && !client.destroyed) return client;
    }
  }

  private putFree(client: Client): void {
    const state = this.clients.get(client);
    if (state === undefined || state.isFree) return;
    state.isFree = true;
    this.free.push(client);
  }

  private open(): Client | undefined {
    if (this.clients.size >= this.connections) return undefined;
    const client = new Client(this.origin, this.clientOptions);
    this.clients.set(client, { isFree: false });
    client.on('drain', () => this.onDrain(client));
    // As undici's Pool: a connection that failed to connect is not used again.
    client.on('connectionError', () => this.forget(client));
    return client;
  }

  /** A connection can take a call again: the oldest waiting one, else it is free. */
  private onDrain(client: Client): void {
    if (!this.clients.has(client)) return;
    let takesMore = true;
    while (takesMore && this.waiting.length > this.waitingHead) {
      const next = this.waiting[this.waitingHead]!;
      this.waiting[this.waitingHead++] = undefined as unknown as Waiting;
      takesMore = client.dispatch(next.options, next.handler);
    }
    if (this.waitingHead === this.waiting.length) {
      this.waiting.length = 0;
      this.waitingHead = 0;
      this.noneWaiting?.();
    }
    if (!takesMore) return;
    this.putFree(client);
    if (this.full && this.waiting.length === 0) {
      this.full = false;
      this.emit('drain', new URL(this.origin));
    }
  }

  /** It may still sit on the free stack: takeFree skips what the pool no longer has. */
  private forget(client: Client): void {
    this.clients.delete(client);
    // Calls waiting for a connection get a new one in its place.
    if (this.waiting.length > this.waitingHead) {
      const replacement = this.open();
      if (replacement !== undefined) this.onDrain(replacement);
    }
  }

  private takeWaiting(): Waiting[] {
    const waiting = this.waiting.slice(this.waitingHead);
    this.waiting.length = 0;
    this.waitingHead = 0;
    return waiting;
  }

  /** No new call is taken; calls already waiting still go out (as undici's Pool closes). */
  private async closeAll(): Promise<void> {
    this.closed = true;
    if (this.waiting.length > this.waitingHead)
      await new Promise<void>((resolve) => (this.noneWaiting = resolve));
    await Promise.all([...this.clients.keys()].map((client) => client.close()));
  }

  /** A call made to a closed pool fails as it does on undici's: ClientClosedError, to its handler or thrown. */
  private refuse(handler: Dispatcher.DispatchHandler): boolean {
    const error = new errors.ClientClosedError();
    if (!failCall(handler, error)) throw error;
    return false;
  }
}

/** Tells a call's handler, in whichever of undici's handler shapes it has, that it failed. */
function failCall(handler: Dispatcher.DispatchHandler, error: Error): boolean {
  const either = handler as {
    onError?: (error: Error) => void;
    onResponseError?: (controller: null, error: Error) => void;
  };
  if (typeof either.onError === 'function') either.onError(error);
  else if (typeof either.onResponseError === 'function') either.onResponseError(null, error);
  else return false;
  return true;
}
