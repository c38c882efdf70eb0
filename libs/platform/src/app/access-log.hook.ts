import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { requestContextOf } from '../context/request-context.hook';
import { addResponseHookPerRoute } from './response-hook-per-route';

/** Probes and scrapes arrive every few seconds; they are logged only at debug level. */
const QUIET_ROUTES = new Set(['/health', '/health/ready', '/metrics']);

/** One line per answered request: method, route template, status, duration. No URL, headers or body. */
export const installAccessLogHook = (fastify: FastifyInstance, logger: Logger): void => {
  addResponseHookPerRoute(fastify, (route) => {
    const level = QUIET_ROUTES.has(route) ? 'debug' : 'info';
    return function logAccess(request, reply, done) {
      if (logger.isLevelEnabled(level)) {
        const context = requestContextOf(request);
        const line = {
          requestId: context?.requestId ?? request.id,
          ...(context?.identity ? { userId: context.identity.userId } : {}),
          method: request.method,
          route,
          status: reply.statusCode,
          durationMs: Math.round(reply.elapsedTime * 10) / 10,
        };
        logger[level](line, 'request completed');
      }
      done();
    };
  });
};
