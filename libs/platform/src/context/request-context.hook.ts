import type { FastifyInstance, FastifyRequest } from 'fastify';
import { runWithRequestContext, type RequestContext } from './request-context';
import { CORRELATION_ID_HEADER, REQUEST_ID_HEADER, generateRequestId, saneId } from './request-id';

const contexts = new WeakMap<FastifyRequest, RequestContext>();

const contextFromHeaders = (request: FastifyRequest): RequestContext => ({
  requestId: request.id,
  // `?.`: error filters are also handed requests built by hand (their specs), without headers.
  correlationId: saneId(request.headers?.[CORRELATION_ID_HEADER]) ?? request.id,
});

/**
 * The context of an HTTP request: where async-local storage did not follow (error and 404 handlers),
 * and in a service that carries it explicitly instead (`asyncLocal: false`), where it is made anew from
 * the request's id and headers each time it is asked for: a pure function of them, cheaper than a
 * WeakMap entry per request, whose ephemeron table every scavenge walks (bench/ANALYSIS.md, H41).
 */
export const requestContextOf = (request: FastifyRequest): RequestContext =>
  contexts.get(request) ?? contextFromHeaders(request);

/** For the adapter's `genReqId`: the caller's `x-request-id` when sane, else a new one. */
export const requestIdFromHeaders = (headers: Record<string, string | string[] | undefined>): string =>
  saneId(headers[REQUEST_ID_HEADER]) ?? generateRequestId();

export interface RequestContextHookOptions {
  /**
   * Whether the rest of the request runs inside its context in async-local storage (the default), so
   * that code deep in its handling reads it with `currentRequestContext()`. Off, the request's context
   * is `requestContextOf(request)`, carried on by whoever needs it, and no AsyncLocalStorage is ever
   * entered: once one is, Node 20 runs a hook for every promise and async resource the process makes.
   */
  asyncLocal?: boolean;
}

/**
 * Answers each request's id as `x-request-id`; with `asyncLocal`, opens its context on arrival and
 * enters it again just before the handler: body parsing runs on the socket's own async context, so
 * what `onRequest` entered is lost by the time a POST handler runs.
 */
export const installRequestContextHooks = (
  fastify: FastifyInstance,
  { asyncLocal = true }: RequestContextHookOptions = {},
): void => {
  if (!asyncLocal) {
    fastify.addHook('onRequest', (request, reply, done) => {
      void reply.header(REQUEST_ID_HEADER, request.id);
      done();
    });
    return;
  }
  fastify.addHook('onRequest', (request, reply, done) => {
    const context = contextFromHeaders(request);
    contexts.set(request, context);
    void reply.header(REQUEST_ID_HEADER, request.id);
    runWithRequestContext(context, done);
  });
  fastify.addHook('preHandler', (request, _reply, done) => {
    const context = contexts.get(request);
    if (context) runWithRequestContext(context, done);
    else done();
  });
};
