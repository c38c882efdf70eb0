import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ErrorCode } from '@tollgate/contracts';
import type { ConnectionError, FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import type { BaseServiceConfig } from '../config/base-service-config';
import { redactConfig } from '../config/redact-config';
import { installRequestContextHooks, requestIdFromHeaders } from '../context/request-context.hook';
import { selectErrorRenderer, type ErrorRendererRoute } from '../errors/error-renderer';
import { NestPinoLogger } from '../logging/nest-logger';
import { installHttpMetricsHook } from '../metrics/http-metrics.hook';
import { MetricsService } from '../metrics/metrics.service';
import { installHttpTracingHooks } from '../telemetry/http-tracing.hook';
import { isTracingEnabled } from '../telemetry/tracing-state';
import { installLenientJsonParser } from './lenient-json-parser';
import { installAccessLogHook } from './access-log.hook';
import { PlatformModule } from './platform.module';

export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;
/**
 * Connections the kernel queues for a service before it accepts them (capped by net.core.somaxconn).
 * Node's default is 511: when thousands of streams open within seconds (a client's ramp, the gateway
 * opening a connection to relay per new stream), the queue overflowed and the kernel dropped
 * connections, answered as 502s and resets (bench/ANALYSIS.md, "10,000 concurrent streams").
 */
export const LISTEN_BACKLOG = 4096;
/** How long closing a service waits for open connections before cutting them. */
const SHUTDOWN_GRACE_MS = 5_000;

export interface ServiceAppOptions<C extends BaseServiceConfig> {
  service: string;
  config: C;
  logger: Logger;
  /** Error shapes by path prefix, e.g. `{ prefix: '/v1', renderer: openAiErrors }`; the envelope elsewhere. */
  errorRenderers?: readonly ErrorRendererRoute[];
  /** Largest accepted request body; larger ones get 413. */
  bodyLimit?: number;
  /** Which proxies' X-Forwarded-* headers to believe (Fastify's `trustProxy`). */
  trustProxy?: boolean | string | string[] | number;
  /**
   * One server span per request. Defaults to whether the process's telemetry exports spans, so start
   * telemetry before the app; without an exporter the spans would be created and dropped on every call.
   */
  tracing?: boolean;
  /**
   * Runs each request inside its RequestContext in async-local storage, so log lines and events deep
   * in its handling carry its ids (the default). Off, a request still has its context (`x-request-id`,
   * `requestContextOf(request)` for the access log, error reports and whoever carries the ids on
   * explicitly) but no async-local context: once any AsyncLocalStorage has been entered, Node 20 runs a
   * hook for every promise the process makes, which a service that forwards (the gateway) or carries
   * its call's ids itself (relay's hot path) would pay on every call.
   */
  asyncRequestContext?: boolean;
  /** Whether a module applies Nest middleware (a MiddlewareConsumer); without, no middie hook runs per request. */
  nestMiddleware?: boolean;
}

export interface ServiceApp {
  readonly app: NestFastifyApplication;
  /** Starts listening and resolves to the bound port (pass 0 for any free one). */
  listen(port?: number, host?: string): Promise<number>;
  close(): Promise<void>;
}

@Module({})
class ServiceRootModule {}

/** A Nest application on Fastify with everything of the platform wired in, ready to listen. */
export const createServiceApp = async <C extends BaseServiceConfig>(
  module: Type<unknown> | DynamicModule,
  {
    service,
    config,
    logger,
    errorRenderers,
    bodyLimit = DEFAULT_BODY_LIMIT_BYTES,
    trustProxy = true,
    tracing = isTracingEnabled(),
    asyncRequestContext = true,
    nestMiddleware = true,
  }: ServiceAppOptions<C>,
): Promise<ServiceApp> => {
  const adapter = new FastifyAdapter({
    trustProxy,
    bodyLimit,
    // new-api's paths carry a trailing slash (`/api/token/`, `/api/user/`); they name the same route.
    routerOptions: { ignoreTrailingSlash: true },
    logger: false,
    skipMiddie: !nestMiddleware,
    requestIdHeader: false,
    genReqId: (request: IncomingMessage) => requestIdFromHeaders(request.headers),
    // The router's own refusals (a path that does not decode, a parameter past maxParamLength) come
    // before any Nest filter: without this they answered in Fastify's shape, not the caller's protocol.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const rendered = selectErrorRenderer(errorRenderers ?? [], request.url).render({
        code: ErrorCode.ValidationFailed,
        status: error.statusCode ?? 400,
        message:
          error.statusCode === 414 ? 'The request path is too long' : 'The request path is not a valid URL',
      });
      void reply
        .code(rendered.status)
        .headers(rendered.headers ?? {})
        .send(rendered.body);
    },
    // Requests Node's parser refuses (headers past 16 KiB, malformed): no route ever sees them.
    clientErrorHandler: (error: ConnectionError, socket: Socket) => {
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      const status =
        error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
      const rendered = selectErrorRenderer(errorRenderers ?? [], requestPathOf(error.rawPacket)).render({
        code: ErrorCode.ValidationFailed,
        status,
        message: status === 431 ? 'The request headers are too large' : 'The request could not be read',
      });
      const body = JSON.stringify(rendered.body);
      if (socket.writable) {
        socket.write(
          `HTTP/1.1 ${rendered.status} ${STATUS_CODES[rendered.status] ?? ''}\r\nConnection: close\r\n` +
            `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        );
      }
      socket.destroy(error);
    },
  });
  const root: DynamicModule = {
    module: ServiceRootModule,
    imports: [
      PlatformModule.forRoot({
        service,
        logger,
        internalTokenSecret: config.TOLLGATE_INTERNAL_TOKEN_SECRET,
        config,
        ...(errorRenderers ? { errorRenderers } : {}),
      }),
      module,
    ],
  };
  const app = await NestFactory.create<NestFastifyApplication>(root, adapter, {
    logger: new NestPinoLogger(logger),
    abortOnError: false,
    // Ours (installLenientJsonParser) parses JSON; Nest would register Fastify's strict one again.
    bodyParser: false,
  });

  // Route hooks must exist before app.init() registers the routes.
  const fastify = app.getHttpAdapter().getInstance();
  installLenientJsonParser(fastify);
  installRequestContextHooks(fastify, { asyncLocal: asyncRequestContext });
  if (tracing) installHttpTracingHooks(fastify);
  installHttpMetricsHook(fastify, app.get(MetricsService));
  installAccessLogHook(fastify, logger);
  // No enableShutdownHooks(): Nest's signal handler re-raises the signal after closing the app, which
  // kills the process before its owner (runMain, the launcher) has closed the bus, the kv client and
  // telemetry. Whoever owns the process handles SIGINT/SIGTERM and calls close(), which still runs
  // Nest's onModuleDestroy, beforeApplicationShutdown and onApplicationShutdown hooks.

  return {
    app,
    listen: async (port = config.PORT, host = config.HOST) => {
      await app.listen({ port, host, backlog: LISTEN_BACKLOG });
      const { port: bound } = app.getHttpServer().address() as AddressInfo;
      logger.info({ host, port: bound, config: redactConfig(config) }, `${service} listening`);
      return bound;
    },
    close: async () => {
      // In-flight calls get a grace period to finish; a connection still open after it (a stream, a
      // client that never finishes its request) is cut rather than holding the shutdown for minutes.
      const server = app.getHttpServer() as { closeAllConnections?: () => void };
      const force = setTimeout(() => server.closeAllConnections?.(), SHUTDOWN_GRACE_MS);
      force.unref();
      try {
        await app.close();
      } finally {
        clearTimeout(force);
      }
    },
  };
};

/** The path of the request line in what a refused request sent, to answer in its route's protocol. */
function requestPathOf(rawPacket: unknown): string {
  // Typed as its JSON form by Fastify, a Buffer at run time.
  if (!Buffer.isBuffer(rawPacket)) return '/';
  const line = rawPacket.subarray(0, 2048).toString('latin1').split('\r\n', 1)[0] ?? '';
  return /^[A-Z]+ (\/\S*)/.exec(line)?.[1] ?? '/';
}
