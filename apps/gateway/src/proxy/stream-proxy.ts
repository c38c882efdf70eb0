import { IncomingMessage, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { errors, type Dispatcher } from 'undici';
import { frameChunk, frameChunksItself, LAST_CHUNK } from '@tollgate/runtime';
import { isEventStream, requestHeadersForBackend, responseHeadersForClient } from './forward-headers';

export interface ProxyTimings {
  /** When the request was handed to the backend pool (performance.now()). */
  dispatchedAt: number;
  /** When the backend's response headers arrived; undefined when it never answered. */
  headersAt?: number;
}

export type ProxyOutcome =
  | { kind: 'completed'; status: number; timings: ProxyTimings }
  /** The client went away first; the backend call was aborted. */
  | { kind: 'client_aborted'; timings: ProxyTimings }
  /** The backend could not be reached or failed before any byte went to the client. */
  | { kind: 'backend_failed'; error: Error; timings: ProxyTimings }
  /** The backend failed mid-response: the client's connection is cut, nothing else can be done. */
  | { kind: 'backend_broke'; error: Error; timings: ProxyTimings };

/**
 * Streams one request to a backend and its answer back, both ways without buffering, with
 * back-pressure (undici writes straight into the client response, a Writable) and an abort of the
 * backend call as soon as the client disconnects.
 */
export interface ProxyCall {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The request body to stream through; null for none. */
  body: Readable | null;
  addedHeaders: Record<string, string>;
  /** Answered to the client as `x-request-id`, whatever the backend says. */
  requestId: string;
}

/**
 * Streams the call to the backend pool and its answer into `res`. A dispatch handler of our own rather
 * than `pool.stream` with an AbortSignal: the profile showed the AbortController, its listener and the
 * stream handler's AsyncResource and `finished()` costing every call several percent of the gateway's
 * CPU. The client closing `res` early is what aborts the backend call, before or after its headers.
 */
export function proxyRequest(pool: Dispatcher, call: ProxyCall, res: ServerResponse): Promise<ProxyOutcome> {
  return new Promise((resolve) => forwardCall(pool, call, res, resolve));
}

/**
 * proxyRequest without its promise: `settle` gets the outcome once, called from undici's handler (or at
 * once, when the dispatch fails). The gateway's /v1 path, which then waits on no promise at all.
 */
export function forwardCall(
  pool: Dispatcher,
  call: ProxyCall,
  res: ServerResponse,
  settle: (outcome: ProxyOutcome) => void,
): void {
  const method = call.method as Dispatcher.HttpMethod;
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const body = hasBody && call.body !== null ? arrivedBody(call.body) : null;
  const stream = body === null || Buffer.isBuffer(body) ? null : body;
  pool.dispatch(
    {
      path: call.path,
      method,
      headers: requestHeadersForBackend(call.headers, call.addedHeaders),
      body,
    },
    new ForwardingHandler(res, stream, call.requestId, settle),
  );
}

const NO_BYTES = Buffer.alloc(0);

/**
 * A request body that has arrived whole by the time it is forwarded (a small call's usually has: it
 * comes in the packets that carried the headers) goes to undici as one Buffer, written with the
 * request's head in one write, instead of through undici's stream plumbing (listeners on the body and
 * the socket, a writer, ticks to flow): about 3 % of the gateway's busy samples on /v1 calls, and the
 * garbage it made (GC went from ~10 % to ~4 % of them).
 * Nothing waits for a body: one still arriving, or one without a declared length, streams as before.
 */
export function arrivedBody(body: Readable): Readable | Buffer {
  if (!(body instanceof IncomingMessage) || body.readableFlowing !== null) return body;
  const declared = body.headers['content-length'];
  if (declared === undefined || body.readableLength !== Number(declared)) return body;
  const whole = (body.read() as Buffer | null) ?? NO_BYTES;
  // Flowing, the emptied request still reaches its end and closes, as a request read to the end does.
  body.resume();
  return whole;
}

/**
 * undici's handler methods as its core calls them (onConnect, onHeaders, onData, onComplete, onError;
 * typed as deprecated in undici 7). A handler with the newer methods (onRequestStart, onResponseStart,
 * …) is reached through a wrapper that allocates a controller and parses the answer's raw headers into
 * an object on every call, which the gateway would only turn back into a list to write: here the raw
 * list goes to `writeHead` as it came (`responseHeadersForClient`).
 */
class ForwardingHandler implements Dispatcher.DispatchHandler {
  private readonly timings: ProxyTimings = { dispatchedAt: performance.now() };
  private abortCall: ((error: Error) => void) | undefined;
  private resumeCall: (() => void) | undefined;
  private clientGone = false;
  private settled = false;
  private waitingForDrain = false;
  /** Some of the answer's body went to the client (and its headers with it). */
  private forwardedAny = false;
  /** The answer's chunked framing is written here, each piece as one write (@tollgate/runtime, chunked-framing.ts). */
  private framed = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly body: Readable | null,
    private readonly requestId: string,
    private readonly settle: (outcome: ProxyOutcome) => void,
  ) {
    res.on('close', this.onClientClose);
    // As undici's own handlers do: a body that fails (one cut at the limit) fails the call.
    body?.on('error', this.onBodyError);
  }

  private readonly onClientClose = (): void => {
    if (this.res.writableFinished) return;
    this.clientGone = true;
    this.abortCall?.(new errors.RequestAbortedError());
  };

  private readonly onBodyError = (error: Error): void => this.fail(error);

  private readonly onDrain = (): void => {
    this.waitingForDrain = false;
    this.resumeCall?.();
  };

  onConnect(abort: (error?: Error) => void): void {
    this.abortCall = abort;
    if (this.clientGone) abort(new errors.RequestAbortedError());
  }

  /** False pauses reading the backend's answer until `resume` is called. */
  onHeaders(statusCode: number, rawHeaders: Buffer[], resume: () => void): boolean {
    // 1xx answers are the backend's business; the client gets the final one.
    if (statusCode < 200) return true;
    this.resumeCall = resume;
    this.timings.headersAt = performance.now();
    const headers = responseHeadersForClient(rawHeaders, this.requestId);
    this.res.writeHead(statusCode, headers);
    this.framed = frameChunksItself(this.res);
    // An event stream's headers go out at once, so its client sees the answer begin before the
    // first event: with that event when it came in the same read (undici hands it over before this
    // turn's microtasks run), else alone. Any other answer leaves them to go with the body in one
    // write: flushing them alone cost a syscall and a packet per call in the profile.
    if (isEventStream(headers)) queueMicrotask(this.flushHeaders);
    return true;
  }

  private readonly flushHeaders = (): void => {
    if (!this.forwardedAny && !this.res.destroyed) this.res.flushHeaders();
  };

  onData(chunk: Buffer): boolean {
    if (chunk.length === 0) return true;
    this.forwardedAny = true;
    if (this.res.write(this.framed ? frameChunk(chunk) : chunk)) return true;
    // Back-pressure: the backend's socket is read again once the client has taken what it was sent.
    if (!this.waitingForDrain) {
      this.waitingForDrain = true;
      this.res.once('drain', this.onDrain);
    }
    return false;
  }

  onComplete(): void {
    if (this.framed) this.res.end(LAST_CHUNK);
    else this.res.end();
    this.finish({ kind: 'completed', status: this.res.statusCode, timings: this.timings });
  }

  onError(error: Error): void {
    this.fail(error);
  }

  private fail(error: Error): void {
    if (this.settled) return;
    if (this.body !== null) destroyBody(this.body, error);
    if (this.clientGone) {
      this.finish({ kind: 'client_aborted', timings: this.timings });
    } else if (this.res.headersSent) {
      this.res.destroy(error);
      this.finish({ kind: 'backend_broke', error, timings: this.timings });
    } else {
      this.finish({ kind: 'backend_failed', error, timings: this.timings });
    }
  }

  private finish(outcome: ProxyOutcome): void {
    if (this.settled) return;
    this.settled = true;
    this.res.off('close', this.onClientClose);
    if (this.waitingForDrain) this.res.off('drain', this.onDrain);
    this.body?.off('error', this.onBodyError);
    this.settle(outcome);
  }
}

/**
 * Stops reading a request body the backend will not take, as undici's own handlers do; the client's
 * request is only marked destroyed, not its socket, which still carries the answer.
 */
function destroyBody(body: Readable, error: Error): void {
  if (body.destroyed) return;
  if (body instanceof IncomingMessage) (body as { socket: unknown }).socket = null;
  body.destroy(error);
}
