import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';

/** Requests that matched no route share one label, so scanners cannot grow the series count. */
export const UNMATCHED_ROUTE = 'unmatched';

export type ResponseHook = (request: FastifyRequest, reply: FastifyReply, done: () => void) => void;

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
