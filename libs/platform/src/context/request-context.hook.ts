import type { FastifyInstance, FastifyRequest } from 'fastify';
import { runWithRequestContext, type RequestContext } from './request-context';
import { CORRELATION_ID_HEADER, REQUEST_ID_HEADER, generateRequestId, saneId } from './request-id';

const contexts = new WeakMap<FastifyRequest, RequestContext>();

/** The context of an HTTP request, also where async-local storage did not follow (error and 404 handlers). */
export const requestContextOf = (request: FastifyRequest): RequestContext | undefined =>
  contexts.get(request);

/** For the adapter's `genReqId`: the caller's `x-request-id` when sane, else a new one. */
export const requestIdFromHeaders = (headers: Record<string, string | string[] | undefined>): string =>
  saneId(headers[REQUEST_ID_HEADER]) ?? generateRequestId();

/**
 * Opens the request context on arrival and enters it again just before the handler: body parsing runs on
 * the socket's own async context, so what `onRequest` entered is lost by the time a POST handler runs.
 */
export const installRequestContextHooks = (fastify: FastifyInstance): void => {
  fastify.addHook('onRequest', (request, reply, done) => {
    const context: RequestContext = {
      requestId: request.id,
      correlationId: saneId(request.headers[CORRELATION_ID_HEADER]) ?? request.id,
    };
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
