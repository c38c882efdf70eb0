import {
  SpanKind,
  SpanStatusCode,
  context,
  propagation,
  trace,
  type Context,
  type Span,
} from '@opentelemetry/api';
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
} from '@opentelemetry/semantic-conventions';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { UNMATCHED_ROUTE } from '../app/response-hook-per-route';

const TRACER_NAME = '@tollgate/platform';

/**
 * One server span per request, child of the caller's `traceparent`. Attributes are the method, the route
 * template and the status only. createServiceApp installs it only when telemetry exports spans: a no-op span
 * still costs a context switch and two hooks per request.
 */
export const installHttpTracingHooks = (fastify: FastifyInstance): void => {
  const tracer = trace.getTracer(TRACER_NAME);
  const spans = new WeakMap<FastifyRequest, { span: Span; context: Context }>();

  const end = (request: FastifyRequest, status: number | undefined): void => {
    const entry = spans.get(request);
    if (!entry) return;
    spans.delete(request);
    if (status === undefined) {
      entry.span.setStatus({ code: SpanStatusCode.ERROR, message: 'client aborted' });
    } else {
      entry.span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
      if (status >= 500) entry.span.setStatus({ code: SpanStatusCode.ERROR });
    }
    entry.span.end();
  };

  fastify.addHook('onRequest', (request, _reply, done) => {
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    const parent = propagation.extract(context.active(), request.headers);
    const span = tracer.startSpan(
      `${request.method} ${route}`,
      {
        kind: SpanKind.SERVER,
        attributes: { [ATTR_HTTP_REQUEST_METHOD]: request.method, [ATTR_HTTP_ROUTE]: route },
      },
      parent,
    );
    const active = trace.setSpan(parent, span);
    spans.set(request, { span, context: active });
    context.with(active, done);
  });
  fastify.addHook('preHandler', (request, _reply, done) => {
    const entry = spans.get(request);
    if (entry) context.with(entry.context, done);
    else done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    end(request, reply.statusCode);
    done();
  });
  fastify.addHook('onRequestAbort', (request, done) => {
    end(request, undefined);
    done();
  });
};
