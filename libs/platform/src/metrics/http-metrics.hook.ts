import type { FastifyInstance } from 'fastify';
import type { MetricsService } from './metrics.service';

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** Requests that matched no route share one label, so scanners cannot grow the series count. */
export const UNMATCHED_ROUTE = 'unmatched';

/** Records every response in the duration histogram, labelled by the route template, never the raw URL. */
export const installHttpMetricsHook = (fastify: FastifyInstance, metrics: MetricsService): void => {
  const duration = metrics.histogram('httpRequestDuration');
  fastify.addHook('onResponse', (request, reply, done) => {
    duration.observe(
      {
        method: KNOWN_METHODS.has(request.method) ? request.method : 'OTHER',
        route: request.routeOptions.url ?? UNMATCHED_ROUTE,
        status: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
    done();
  });
};
