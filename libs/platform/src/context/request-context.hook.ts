import type { FastifyInstance, FastifyRequest } from 'fastify';
import { runWithRequestContext, type RequestContext } from './request-context';
import { CORRELATION_ID_HEADER, REQUEST_ID_HEADER, generateRequestId, saneId } from './request-id';

const contexts = new WeakMap<FastifyRequest, RequestContext>();

/**
 * The context of an HTTP request: where async-local storage did not follow (error and 404 handlers),
 * and in a service that carries it explicitly instead (`asyncLocal: false`).
 */
export const requestContextOf = (request: FastifyRequest): RequestContext | undefined =>
  contexts.get(request);

/** For the adapter's `genReqId`: the caller's `x-request-id` when sane, else a new one. */
export const requestIdFromHeaders = (headers: Record<string, string | string[] | undefined>): string =>
  saneId(headers[REQUEST_ID_HEADER]) ?? generateRequestId();

export interface RequestContextHookOptions {
  /**
   * Whether the rest of the request runs inside its context in async-local storage (the default), so
   * that code deep in its handling reads it with `currentRequestContext()`. Off, each request still
   * gets its context, read with `requestContextOf(request)` and carried on by whoever needs it, and no
   * AsyncLocalStorage is ever entered: once one is, Node 20 runs a hook for every promise and async
   * resource the process makes.
   */
  asyncLocal?: boolean;
}

/**
 * Opens the request context on arrival, answers its id as `x-request-id`, and (`asyncLocal`) enters it
 * again just before the handler: body parsing runs on the socket's own async context, so what
 * `onRequest` entered is lost by the time a POST handler runs.
 */
export const installRequestContextHooks = (
  fastify: FastifyInstance,
  { asyncLocal = true }: RequestContextHookOptions = {},
): void => {
  fastify.addHook('onRequest', (request, reply, done) => {
    const context: RequestContext = {
      requestId: request.id,
      correlationId: saneId(request.headers[CORRELATION_ID_HEADER]) ?? request.id,
    };
    contexts.set(request, context);
    void reply.header(REQUEST_ID_HEADER, request.id);
    if (asyncLocal) runWithRequestContext(context, done);
    else done();
  });
  if (!asyncLocal) return;
  fastify.addHook('preHandler', (request, _reply, done) => {
    const context = contexts.get(request);
    if (context) runWithRequestContext(context, done);
    else done();
  });
};
