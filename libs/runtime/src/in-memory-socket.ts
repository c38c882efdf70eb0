import { Duplex } from 'node:stream';

/**
 * One end of a connection held in memory: what one end writes, the other reads, with no kernel socket,
 * no descriptor and no system call. Embedded mode's gateway reaches relay through such a pair: undici's
 * client writes HTTP/1.1 into one end, relay's Node HTTP server serves the other as it would an
 * accepted TCP connection (server.emit('connection', end)).
 *
 * It behaves as a TCP socket does where HTTP on both sides can tell:
 * - what is written arrives in a later turn of the event loop (a setImmediate, one for all the writes
 *   of a turn), never within the writer's call: a call and its answer never complete in one chain of
 *   microtasks that starves the loop's I/O and timers, and undici's pool, which lets a connection rest
 *   for one turn after each answer, finds it free again instead of opening one per call;
 * - a write completes once the other end has taken its data below its buffer's limit, so a reader
 *   that stops reading holds the writer back (backpressure, about one buffer in flight);
 * - end() is a half-close: the other end reads what was written, then its end of input;
 * - destroy() closes: the other end reads what had been written before, then its end of input, and a
 *   write of its own after that fails with EPIPE (TCP answers one with a reset);
 * - setTimeout(ms) is an idle timer that either end's reading or writing restarts, emitting 'timeout'
 *   (Node's HTTP server closes idle keep-alive connections with it);
 * - setNoDelay, setKeepAlive, ref and unref are accepted and do nothing (nothing to tune, no handle).
 * Addresses read as loopback's, since HTTP servers log and check them.
 */
export class InMemorySocket extends Duplex {
  readonly remoteAddress = '127.0.0.1';
  readonly remoteFamily = 'IPv4';
  readonly localAddress = '127.0.0.1';
  readonly remotePort: number;
  readonly localPort: number;
  readonly connecting = false;
  bytesRead = 0;
  bytesWritten = 0;
  /** The idle timeout set with setTimeout, 0 when off (net.Socket's `timeout`). */
  timeout = 0;
  private peer!: InMemorySocket;
  /** What the other end wrote that this end has not pushed to its readers yet. */
  private incoming: Buffer[] = [];
  /** The callback of the other end's write still in `incoming` or above this end's buffer limit. */
  private peerWriteDone: ((error?: Error | null) => void) | undefined;
  /** The other end will write nothing more: this end's input ends after `incoming`. */
  private inputEnding = false;
  private inputEnded = false;
  private delivery: NodeJS.Immediate | undefined;
  private idleTimer: NodeJS.Timeout | undefined;

  private constructor(localPort: number, remotePort: number) {
    super({ allowHalfOpen: true, decodeStrings: true });
    this.localPort = localPort;
    this.remotePort = remotePort;
  }

  /** Two connected ends: [the client's, the server's]. */
  static pair(): [InMemorySocket, InMemorySocket] {
    const port = nextPort();
    const client = new InMemorySocket(port, 0);
    const server = new InMemorySocket(0, port);
    client.peer = server;
    server.peer = client;
    return [client, server];
  }

  override _read(): void {
    if (this.incoming.length === 0) this.releaseWriter();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.send([chunk], callback);
  }

  override _writev(
    chunks: { chunk: Buffer; encoding: BufferEncoding }[],
    callback: (error?: Error | null) => void,
  ): void {
    this.send(
      chunks.map((c) => c.chunk),
      callback,
    );
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.peer.endInput();
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.clearIdleTimer();
    if (this.delivery) clearImmediate(this.delivery);
    this.delivery = undefined;
    this.incoming = [];
    // What the other end was still writing to this one is lost, as a reset would lose it.
    const pending = this.peerWriteDone;
    this.peerWriteDone = undefined;
    pending?.(brokenPipe());
    this.peer.endInput();
    callback(error);
  }

  setTimeout(ms: number, callback?: () => void): this {
    this.timeout = ms;
    if (callback) {
      if (ms === 0) this.removeListener('timeout', callback);
      else this.once('timeout', callback);
    }
    this.clearIdleTimer();
    if (ms > 0 && !this.destroyed) {
      this.idleTimer = setTimeout(() => this.emit('timeout'), ms);
      this.idleTimer.unref();
    }
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

  address(): { address: string; family: string; port: number } {
    return { address: this.localAddress, family: 'IPv4', port: this.localPort };
  }

  private send(chunks: Buffer[], callback: (error?: Error | null) => void): void {
    const peer = this.peer;
    if (peer.inputEnding || peer.destroyed) {
      callback(brokenPipe());
      return;
    }
    let bytes = 0;
    for (const chunk of chunks) {
      if (chunk.length === 0) continue;
      bytes += chunk.length;
      peer.incoming.push(chunk);
    }
    this.bytesWritten += bytes;
    this.idleTimer?.refresh();
    if (bytes === 0) {
      process.nextTick(callback);
      return;
    }
    // Writable hands over one write at a time: the next comes once this one's callback has run.
    peer.peerWriteDone = callback;
    peer.scheduleDelivery();
  }

  private endInput(): void {
    if (this.inputEnding) return;
    this.inputEnding = true;
    this.scheduleDelivery();
  }

  private scheduleDelivery(): void {
    if (!this.delivery && !this.destroyed) this.delivery = setImmediate(() => this.deliver());
  }

  /** Pushes what arrived to this end's readers; the writer goes on if they keep up. */
  private deliver(): void {
    this.delivery = undefined;
    const incoming = this.incoming;
    this.incoming = [];
    let wantsMore = true;
    for (const chunk of incoming) {
      this.bytesRead += chunk.length;
      wantsMore = this.push(chunk);
    }
    if (incoming.length > 0) this.idleTimer?.refresh();
    if (wantsMore) this.releaseWriter();
    if (this.inputEnding && !this.inputEnded && !this.destroyed) {
      this.inputEnded = true;
      this.push(null);
    }
  }

  private releaseWriter(): void {
    const done = this.peerWriteDone;
    if (!done || this.incoming.length > 0) return;
    this.peerWriteDone = undefined;
    done();
  }

  private clearIdleTimer(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }
}

let lastPort = 0;

/** A number per pair, in the ephemeral range, so that logs can tell connections apart. */
function nextPort(): number {
  lastPort = (lastPort % 16_384) + 1;
  return 49_151 + lastPort;
}

function brokenPipe(): NodeJS.ErrnoException {
  return Object.assign(new Error('write EPIPE: the other end of the in-memory connection is closed'), {
    code: 'EPIPE',
  });
}
