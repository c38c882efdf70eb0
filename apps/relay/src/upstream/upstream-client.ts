import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import type { UpstreamHttpRequest, UpstreamUploadRequest } from '../providers';
import { CallAbortedError, type CallAbort } from './call-abort';
import { FreeListPool } from '@tollgate/runtime';

export interface UpstreamClientOptions {
  /** Connections kept per upstream origin. */
  connectionsPerOrigin: number;
  /** Longest wait for the upstream's status line and headers (a model may think a while). */
  headersTimeoutMs: number;
  /**
   * The same wait for a streamed call (headersTimeoutMs unless given). Providers send a stream's
   * headers at once, so this one can be short: an upstream that accepts the call and never answers is
   * found out before the client gives up, while nothing has reached the client yet.
   */
  streamHeadersTimeoutMs?: number;
}

/** An answer's body, read once: whole (`text`, `json`) or chunk by chunk as it arrives (`for await`). */
export interface UpstreamBody extends AsyncIterable<Buffer> {
  text(): Promise<string>;
  json(): Promise<unknown>;
}

export interface UpstreamResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: UpstreamBody;
}

/**
 * How long a streamed call waits for its headers: the channel's own timeout (catalog.channel's
 * `stream_headers_timeout_seconds`, for upstreams that send headers only with a slow first token)
 * when it has one, else relay's RELAY_UPSTREAM_STREAM_HEADERS_TIMEOUT_MS.
 */
export function streamHeadersTimeoutMs(channelSeconds: number | undefined, globalMs: number): number {
  return channelSeconds === undefined ? globalMs : channelSeconds * 1000;
}

/** The upstream could not be reached or did not answer in time: nothing was received. */
export class UpstreamConnectError extends Error {
  constructor(
    message: string,
    readonly timedOut: boolean,
    /** Connected and sent, then no headers came within the headers timeout (the upstream hangs). */
    readonly headersTimedOut = false,
  ) {
    super(message);
    this.name = 'UpstreamConnectError';
  }
}

/**
 * Told what became of an upstream call whose caller left before its headers and which was held to
 * learn it: the status that came, or the error that ended the wait (the headers timeout among them).
 */
export type LateAnswer = (answer: number | UpstreamConnectError) => void;

interface Destination {
  pool: FreeListPool;
  /** Path and query, as undici's dispatch takes them. */
  path: string;
}

const MAX_REMEMBERED_URLS = 4096;

/**
 * A streamed call's body from this size on is handed to undici once (OneShotBody), so that it is not
 * held for as long as the answer streams. A smaller one goes as a string, which undici writes at once
 * where an iterator's body waits for its microtask and its `for await`: 10–30 µs of a stream's first
 * token (bench/ANALYSIS.md, H55); held, it is a few KiB per stream at most.
 */
const ONE_SHOT_BODY_MIN_CHARS = 4096;

const HEADERS_TIMEOUT = 'UND_ERR_HEADERS_TIMEOUT';
const TIMEOUT_CODES = new Set([HEADERS_TIMEOUT, 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * Outbound HTTP to providers: one pool of keep-alive undici connections per origin, created on first
 * use (FreeListPool: undici's Pool walked every busy connection for each new call). Bodies are never
 * timed out (a stream may run for minutes); the call's abort ends a call, before or after the answer's
 * headers.
 */
export class UpstreamClient {
  private readonly pools = new Map<string, FreeListPool>();
  private readonly destinations = new Map<string, Destination>();
  private readonly streamHeadersTimeoutMs: number;
  /** Calls held for `late` after their caller left (see send): close() ends them. */
  private readonly heldCalls = new Set<UpstreamCall>();

  constructor(private readonly options: UpstreamClientOptions) {
    this.streamHeadersTimeoutMs = options.streamHeadersTimeoutMs ?? options.headersTimeoutMs;
  }

  /**
   * Resolves with the answer once its headers arrived. Throws UpstreamConnectError when no answer
   * arrived, or CallAbortedError when the call was aborted first. With `late`, a call aborted before
   * its headers still rejects at once, but the upstream call goes on until its headers or its
   * headers timeout, and `late` is told which (the answer itself is then dropped): whether a channel
   * hangs is then known even when every client gives up before the timeout. `channelStreamTimeoutSeconds`:
   * the channel's own headers timeout for a streamed call (see streamHeadersTimeoutMs).
   */
  send(
    request: UpstreamHttpRequest | UpstreamUploadRequest,
    abort: CallAbort,
    late?: LateAnswer,
    channelStreamTimeoutSeconds?: number,
  ): Promise<UpstreamResponse> {
    if (abort.aborted) return Promise.reject(new CallAbortedError());
    const { pool, path } = this.destinationOf(request.url);
    const oneShot =
      request.stream && typeof request.body === 'string' && request.body.length >= ONE_SHOT_BODY_MIN_CHARS
        ? new OneShotBody(request.body)
        : undefined;
    const options: Dispatcher.DispatchOptions = {
      method: request.method,
      path,
      headers: oneShot ? { ...request.headers, 'content-length': String(oneShot.length) } : request.headers,
      // undici takes any iterable as a body (core/request.js, isIterable); its types list streams only.
      body: oneShot ? (oneShot as unknown as Dispatcher.DispatchOptions['body']) : request.body,
      // undici's own timer per request (the pool's headersTimeout otherwise): no timer of ours per call.
      headersTimeout: request.stream
        ? streamHeadersTimeoutMs(channelStreamTimeoutSeconds, this.streamHeadersTimeoutMs)
        : undefined,
    };
    // The call keeps only the promise's own resolve and reject: a closure made here would keep this
    // scope, and with it the request's body, for as long as the answer streams (bench/ANALYSIS.md, H30).
    return new Promise((resolve, reject) =>
      pool.dispatch(options, new UpstreamCall(abort, resolve, reject, late, this.heldCalls)),
    );
  }

  async close(): Promise<void> {
    // Nobody waits for their answers: closing waits for the calls in flight, and a held one would
    // hold it up to its headers timeout.
    for (const call of this.heldCalls) call.abandon();
    this.heldCalls.clear();
    const pools = [...this.pools.values()];
    this.pools.clear();
    this.destinations.clear();
    await Promise.all(pools.map((pool) => pool.close()));
  }

  /**
   * The pool and path of a URL, parsed once: a channel's calls go to a handful of URLs (one per
   * operation, or per model on Gemini's paths), and parsing one cost every call a WHATWG URL.
   */
  private destinationOf(href: string): Destination {
    let destination = this.destinations.get(href);
    if (destination === undefined) {
      const url = new URL(href);
      destination = { pool: this.poolFor(url.origin), path: `${url.pathname}${url.search}` };
      // Bounded: URLs come from channels and model names, but nothing else ever forgets them.
      if (this.destinations.size >= MAX_REMEMBERED_URLS) this.destinations.clear();
      this.destinations.set(href, destination);
    }
    return destination;
  }

  private poolFor(origin: string): FreeListPool {
    let pool = this.pools.get(origin);
    if (pool === undefined) {
      pool = new FreeListPool(origin, {
        connections: this.options.connectionsPerOrigin,
        headersTimeout: this.options.headersTimeoutMs,
        bodyTimeout: 0,
        keepAliveTimeout: 30_000,
      });
      this.pools.set(origin, pool);
    }
    return pool;
  }
}

/**
 * A request body handed out once: undici keeps a string or Buffer body in its request until the answer
 * ends, which for a stream held for minutes is the whole prompt per stream (bench/ANALYSIS.md, H30);
 * an iterator's body is let go as soon as it was written. Only streamed answers with a body of
 * ONE_SHOT_BODY_MIN_CHARS or more take it: it costs undici's iterator writer (a few promises) per call.
 */
class OneShotBody implements IterableIterator<Buffer> {
  private chunk: Buffer | undefined;
  readonly length: number;

  constructor(body: string) {
    this.chunk = Buffer.from(body, 'utf8');
    this.length = this.chunk.length;
  }

  [Symbol.iterator](): IterableIterator<Buffer> {
    return this;
  }

  next(): IteratorResult<Buffer> {
    const chunk = this.chunk;
    this.chunk = undefined;
    return chunk === undefined || chunk.length === 0
      ? { done: true, value: undefined }
      : { done: false, value: chunk };
  }
}

function connectError(error: Error): UpstreamConnectError {
  const code = (error as { code?: unknown }).code;
  return new UpstreamConnectError(
    typeof code === 'string' ? code : error.name,
    typeof code === 'string' && TIMEOUT_CODES.has(code),
    code === HEADERS_TIMEOUT,
  );
}

const BOM = [0xef, 0xbb, 0xbf] as const;

/** Buffered while nobody reads; beyond it the upstream's socket waits for the reader (back-pressure). */
const BODY_HIGH_WATER_MARK = 64 * 1024;

/**
 * One upstream call, as a dispatch handler of its own rather than undici's `request()`: the profile
 * showed its AsyncResource, its body stream and the AbortSignal listener it needs costing every call
 * several percent of relay's CPU. The answer's body is kept here and handed out as it arrives, with
 * back-pressure; the call's abort ends the upstream call before or after the headers, and so does a
 * reader that stops early (`break` out of `for await`).
 */
class UpstreamCall implements Dispatcher.DispatchHandler, UpstreamBody {
  private controller: Dispatcher.DispatchController | undefined;
  private abortedEarly = false;
  private removeAbortListener: (() => void) | undefined;
  private answered = false;
  private read = false;
  /** Read whole (text, json): nothing to hold back. */
  private whole = false;
  /** The body's chunks not yet handed out, and their size. */
  private chunks: Buffer[] = [];
  private queued = 0;
  private ended = false;
  private error: Error | undefined;
  /** A reader waiting for the next chunk, the end or an error. */
  private wake: (() => void) | undefined;
  /** The caller left before the headers and the call is held for `late` (see UpstreamClient.send). */
  private left = false;

  constructor(
    private readonly abort: CallAbort,
    private readonly answer: (response: UpstreamResponse) => void,
    private readonly refuse: (error: Error) => void,
    private readonly late?: LateAnswer,
    private readonly heldCalls?: Set<UpstreamCall>,
  ) {
    this.removeAbortListener = abort.onAbort(this.onAbort);
  }

  private readonly onAbort = (): void => {
    this.removeAbortListener = undefined;
    if (this.late !== undefined && !this.answered) {
      this.left = true;
      this.heldCalls?.add(this);
      this.refuse(new CallAbortedError());
      return;
    }
    if (this.controller === undefined) this.abortedEarly = true;
    else this.controller.abort(new CallAbortedError());
  };

  /** Ends a held call without a verdict (the client is closing). */
  abandon(): void {
    if (this.controller === undefined) this.abortedEarly = true;
    else this.controller.abort(new CallAbortedError());
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.abortedEarly) controller.abort(new CallAbortedError());
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: IncomingHttpHeaders,
  ): void {
    // 1xx answers are undici's business; the caller gets the final one.
    if (statusCode < 200) return;
    this.answered = true;
    if (this.left) {
      this.heldCalls?.delete(this);
      controller.abort(new CallAbortedError());
      this.late!(statusCode);
      return;
    }
    this.answer({ statusCode, headers, body: this });
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.chunks.push(chunk);
    this.queued += chunk.length;
    if (!this.whole && this.queued >= BODY_HIGH_WATER_MARK) controller.pause();
    this.wakeReader();
  }

  onResponseEnd(): void {
    this.ended = true;
    this.stopListening();
    this.wakeReader();
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    this.stopListening();
    if (!this.answered) {
      if (this.left) {
        this.heldCalls?.delete(this);
        if (!(error instanceof CallAbortedError)) this.late!(connectError(error));
        return;
      }
      this.refuse(this.abort.aborted || error instanceof CallAbortedError ? error : connectError(error));
      return;
    }
    this.error ??= error;
    this.wakeReader();
  }

  async text(): Promise<string> {
    this.claim();
    this.whole = true;
    while (!this.ended) {
      if (this.error !== undefined) throw this.error;
      await this.nextEvent();
    }
    if (this.error !== undefined) throw this.error;
    const chunks = this.chunks;
    this.chunks = [];
    if (chunks.length === 0) return '';
    const buffer = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.queued);
    // As undici's body.text(): a UTF-8 byte order mark is not part of the text.
    const start = buffer[0] === BOM[0] && buffer[1] === BOM[1] && buffer[2] === BOM[2] ? 3 : 0;
    return buffer.toString('utf8', start);
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text()) as unknown;
  }

  [Symbol.asyncIterator](): AsyncIterator<Buffer> {
    this.claim();
    return {
      next: async (): Promise<IteratorResult<Buffer>> => {
        for (;;) {
          const chunk = this.chunks.shift();
          if (chunk !== undefined) {
            this.queued -= chunk.length;
            if (this.queued < BODY_HIGH_WATER_MARK) this.controller?.resume();
            return { value: chunk, done: false };
          }
          if (this.error !== undefined) throw this.error;
          if (this.ended) return { value: undefined, done: true };
          await this.nextEvent();
        }
      },
      // The reader stopped early (a `break`, an error in its loop): the rest is not wanted.
      return: async (): Promise<IteratorResult<Buffer>> => {
        if (!this.ended && this.error === undefined) this.controller?.abort(new CallAbortedError());
        return { value: undefined, done: true };
      },
    };
  }

  private claim(): void {
    if (this.read) throw new TypeError('the upstream body was already read');
    this.read = true;
  }

  /** Waits for the next chunk, the end or an error, reading the upstream's socket again meanwhile. */
  private nextEvent(): Promise<void> {
    this.controller?.resume();
    return new Promise((resolve) => (this.wake = resolve));
  }

  private wakeReader(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  private stopListening(): void {
    this.removeAbortListener?.();
    this.removeAbortListener = undefined;
  }
}

/** Reads at most `limit` bytes of an error body and discards the rest. */
export async function readLimited(body: AsyncIterable<Buffer>, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (size < limit) {
      chunks.push(chunk);
      size += chunk.length;
    }
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}
