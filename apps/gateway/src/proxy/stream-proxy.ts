import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import type { Dispatcher, Pool } from 'undici';
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

export async function proxyRequest(pool: Pool, call: ProxyCall, res: ServerResponse): Promise<ProxyOutcome> {
  const abort = new AbortController();
  const timings: ProxyTimings = { dispatchedAt: performance.now() };
  let clientGone = false;
  const onClose = () => {
    if (!res.writableFinished) {
      clientGone = true;
      abort.abort();
    }
  };
  res.once('close', onClose);

  const method = call.method as Dispatcher.HttpMethod;
  const hasBody = method !== 'GET' && method !== 'HEAD';
  try {
    await pool.stream(
      {
        path: call.path,
        method,
        headers: requestHeadersForBackend(call.headers, call.addedHeaders),
        body: hasBody ? call.body : null,
        signal: abort.signal,
      },
      ({ statusCode, headers }) => {
        timings.headersAt = performance.now();
        res.writeHead(
          statusCode,
          responseHeadersForClient(headers as Record<string, string | string[] | undefined>),
        );
        // An event stream's headers go out at once, so its client sees the answer begin before the
        // first event. Any other answer leaves them to go with the body in one write: flushing them
        // alone cost a syscall and a packet per call in the profile.
        if (isEventStream(headers['content-type'])) res.flushHeaders();
        return res;
      },
    );
    return { kind: 'completed', status: res.statusCode, timings };
  } catch (err) {
    const error = err instanceof Error ? err : new Error(String(err));
    if (clientGone) return { kind: 'client_aborted', timings };
    if (res.headersSent) {
      res.destroy(error);
      return { kind: 'backend_broke', error, timings };
    }
    return { kind: 'backend_failed', error, timings };
  } finally {
    res.off('close', onClose);
  }
}
