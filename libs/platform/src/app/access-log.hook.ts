import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { requestContextOf } from '../context/request-context.hook';
import { UNMATCHED_ROUTE } from '../metrics/http-metrics.hook';

/** Probes and scrapes arrive every few seconds; they are logged only at debug level. */
const QUIET_ROUTES = new Set(['/health', '/health/ready', '/metrics']);

/** One line per answered request: method, route template, status, duration. No URL, headers or body. */
export const installAccessLogHook = (fastify: FastifyInstance, logger: Logger): void => {
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    const context = requestContextOf(request);
    const line = {
      requestId: context?.requestId ?? request.id,
      ...(context?.identity ? { userId: context.identity.userId } : {}),
      method: request.method,
      route,
      status: reply.statusCode,
      durationMs: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (QUIET_ROUTES.has(route)) logger.debug(line, 'request completed');
    else logger.info(line, 'request completed');
    done();
  });
};
