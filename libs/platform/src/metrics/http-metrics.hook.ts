import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { HistogramSeries } from './metric-series';
import type { MetricsService } from './metrics.service';

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** Requests that matched no route share one label, so scanners cannot grow the series count. */
export const UNMATCHED_ROUTE = 'unmatched';

type ResponseHook = (request: FastifyRequest, reply: FastifyReply, done: () => void) => void;

/**
 * Runs `hookFor(template)`'s hook after every response, knowing the route template it answered on
 * without asking each request: Fastify's `request.routeOptions` builds a dozen-field object per call.
 * Each route gets its own onResponse hook as it is registered (so register this before the routes);
 * requests no route matched go to `hookFor(UNMATCHED_ROUTE)` from one global hook.
 */
export function addResponseHookPerRoute(
  fastify: FastifyInstance,
  hookFor: (route: string) => ResponseHook,
): void {
  fastify.addHook('onRoute', (route: RouteOptions) => {
    const hook = hookFor(route.url);
    const existing = route.onResponse;
    route.onResponse =
      existing === undefined ? [hook] : [...(Array.isArray(existing) ? existing : [existing]), hook];
  });
  const unmatched = hookFor(UNMATCHED_ROUTE);
  fastify.addHook('onResponse', (request, reply, done) => {
    if (request.is404) unmatched(request, reply, done);
    else done();
  });
}

/** Records every response in the duration histogram, labelled by the route template, never the raw URL. */
export const installHttpMetricsHook = (fastify: FastifyInstance, metrics: MetricsService): void => {
  const duration = metrics.histogram('httpRequestDuration');
  addResponseHookPerRoute(fastify, (route) => {
    // The route's series, bound once per method and status it answered with.
    const series = new Map<string, Map<number, HistogramSeries>>();
    return function observeHttpDuration(request, reply, done) {
      const method = KNOWN_METHODS.has(request.method) ? request.method : 'OTHER';
      let byStatus = series.get(method);
      if (byStatus === undefined) series.set(method, (byStatus = new Map()));
      let bound = byStatus.get(reply.statusCode);
      if (bound === undefined) {
        bound = duration.labels({ method, route, status: String(reply.statusCode) });
        byStatus.set(reply.statusCode, bound);
      }
      bound.observe(reply.elapsedTime / 1000);
      done();
    };
  });
};
