import { IncomingMessage, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { errors, type Dispatcher, type Pool } from 'undici';
import { requestHeadersForBackend, responseHeadersForClient } from './forward-headers';

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
}

function isEventStream(contentType: string | string[] | undefined): boolean {
  const value = Array.isArray(contentType) ? contentType[0] : contentType;
  return value !== undefined && value.toLowerCase().startsWith('text/event-stream');
}

/**
 * Streams the call to the backend pool and its answer into `res`. A dispatch handler of our own rather
 * than `pool.stream` with an AbortSignal: the profile showed the AbortController, its listener and the
 * stream handler's AsyncResource and `finished()` costing every call several percent of the gateway's
 * CPU. The client closing `res` early is what aborts the backend call, before or after its headers.
 */
export function proxyRequest(pool: Pool, call: ProxyCall, res: ServerResponse): Promise<ProxyOutcome> {
  const method = call.method as Dispatcher.HttpMethod;
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const body = hasBody ? call.body : null;
  return new Promise((resolve) => {
    pool.dispatch(
      {
        path: call.path,
        method,
        headers: requestHeadersForBackend(call.headers, call.addedHeaders),
        body,
      },
      new ForwardingHandler(res, body, resolve),
    );
  });
}

class ForwardingHandler implements Dispatcher.DispatchHandler {
  private readonly timings: ProxyTimings = { dispatchedAt: performance.now() };
  private controller: Dispatcher.DispatchController | undefined;
  private clientGone = false;
  private settled = false;
  private waitingForDrain = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly body: Readable | null,
    private readonly settle: (outcome: ProxyOutcome) => void,
  ) {
    res.once('close', this.onClientClose);
    // As undici's own handlers do: a body that fails (one cut at the limit) fails the call.
    body?.on('error', this.onBodyError);
  }

  private readonly onClientClose = (): void => {
    if (this.res.writableFinished) return;
    this.clientGone = true;
    this.controller?.abort(new errors.RequestAbortedError());
  };

  private readonly onBodyError = (error: Error): void => this.fail(error);

  private readonly onDrain = (): void => {
    this.waitingForDrain = false;
    this.controller?.resume();
  };

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.clientGone) controller.abort(new errors.RequestAbortedError());
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: IncomingHttpHeaders,
  ): void {
    // 1xx answers are the backend's business; the client gets the final one.
    if (statusCode < 200) return;
    this.timings.headersAt = performance.now();
    this.res.writeHead(statusCode, responseHeadersForClient(headers));
    // An event stream's headers go out at once, so its client sees the answer begin before the
    // first event. Any other answer leaves them to go with the body in one write: flushing them
    // alone cost a syscall and a packet per call in the profile.
    if (isEventStream(headers['content-type'])) this.res.flushHeaders();
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.res.write(chunk) || this.waitingForDrain) return;
    // Back-pressure: the backend's socket is read again once the client has taken what it was sent.
    this.waitingForDrain = true;
    controller.pause();
    this.res.once('drain', this.onDrain);
  }

  onResponseEnd(): void {
    this.res.end();
    this.finish({ kind: 'completed', status: this.res.statusCode, timings: this.timings });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
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
    this.res.off('drain', this.onDrain);
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
