import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { addResponseHookPerRoute } from '../app/response-hook-per-route';
import type { HistogramSeries } from './metric-series';
import type { MetricsService } from './metrics.service';

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** nginx's "client closed request": the client left before any answer was sent. */
export const CLIENT_CLOSED_REQUEST = 499;

type RecordRequest = (method: string, status: number, elapsedMs: number) => void;
type RequestHook = (request: FastifyRequest, reply: FastifyReply, done: () => void) => void;

/**
 * Records every request in the duration histogram, labelled by the route template, never the raw URL:
 * an answered one with its status when its response finishes, one its client abandoned when the
 * connection closes (see `watchForAbandonedRequest`).
 */
export const installHttpMetricsHook = (fastify: FastifyInstance, metrics: MetricsService): void => {
  const duration = metrics.histogram('httpRequestDuration');
  const recorders = new Map<string, RecordRequest>();
  const recorderFor = (route: string): RecordRequest => {
    let record = recorders.get(route);
    if (record === undefined) {
      // The route's series, bound once per method and status it answered with.
      const series = new Map<string, Map<number, HistogramSeries>>();
      record = (requestMethod, status, elapsedMs) => {
        const method = KNOWN_METHODS.has(requestMethod) ? requestMethod : 'OTHER';
        let byStatus = series.get(method);
        if (byStatus === undefined) series.set(method, (byStatus = new Map()));
        let bound = byStatus.get(status);
        if (bound === undefined) {
          bound = duration.labels({ method, route, status: String(status) });
          byStatus.set(status, bound);
        }
        bound.observe(elapsedMs / 1000);
      };
      recorders.set(route, record);
    }
    return record;
  };

  addResponseHookPerRoute(fastify, (route) => {
    const record = recorderFor(route);
    return function observeHttpDuration(request, reply, done) {
      record(request.method, reply.statusCode, reply.elapsedTime);
      done();
    };
  });

  // Before the route's own onRequest hooks: one that takes the reply over (the gateway's forwarding)
  // ends the hook chain, and this one must have run by then.
  fastify.addHook('onRoute', (route: RouteOptions) => {
    const hook = watchForAbandonedRequest(recorderFor(route.url));
    const existing = route.onRequest;
    route.onRequest =
      existing === undefined ? [hook] : [hook, ...(Array.isArray(existing) ? existing : [existing])];
  });
};

/**
 * A request whose client leaves while its handler still works (waiting on a hanging upstream) fires
 * none of Fastify's hooks: its response never finishes, so onResponse does not run, and onRequestAbort
 * fires only while the request's body is still unread. Only the response's 'close' tells, so each
 * request gets one listener (what Fastify's `request.signal` would add too, with an AbortController).
 * Recorded as 499 when nothing was sent yet. A client leaving in the middle of a streamed answer (a
 * user's "stop") is recorded with the status it was sent, not as an error. A response whose handler
 * ended it is onResponse's to record, even if it never reached the client.
 */
function watchForAbandonedRequest(record: RecordRequest): RequestHook {
  return function watchForAbandon(request, reply, done) {
    const res = reply.raw;
    res.on('close', () => {
      if (res.writableEnded) return;
      record(request.method, res.headersSent ? res.statusCode : CLIENT_CLOSED_REQUEST, reply.elapsedTime);
    });
    done();
  };
}
