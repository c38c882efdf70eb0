import type { FastifyInstance } from 'fastify';
import { addResponseHookPerRoute } from '../app/response-hook-per-route';
import type { HistogramSeries } from './metric-series';
import type { MetricsService } from './metrics.service';

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

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
