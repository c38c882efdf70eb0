import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors } from 'undici';
import {
  ErrorCode,
  type BackendService,
  type CompiledRouteTable,
  type RouteEntry,
} from '@tollgate/contracts';
import { markHandedOver } from '@tollgate/runtime/main';
import type { ClientAddress, ClientAddressResolver } from './client/client-address';
import {
  bodyLengthDeclared,
  bodyLimitFor,
  BodyTooLargeError,
  declaredOverLimit,
  limitedBody,
} from './limits/body-limit';
import { carriesApiKey } from './limits/api-key-presence';
import type { ClientRateLimiter, RateDecision } from './limits/client-rate-limiter';
import type { CorsPolicy } from './limits/cors-policy';
import type { BackendPools, InProcessHandler } from './proxy/backend-pools';
import { headersForHandOver } from './proxy/forward-headers';
import { sendGatewayError } from './proxy/gateway-errors';
import { forwardCall, type ProxyCall, type ProxyOutcome } from './proxy/stream-proxy';
import { SessionLookupError } from './session/auth-session-lookup';
import type { SessionDecision, SessionStep } from './session/session-step';
import type { WebStatic } from './static/web-static';
import { gatewayMessage } from './i18n/messages';

export interface ProxyObservation {
  service: BackendService;
  outcome: ProxyOutcome['kind'];
  status: number;
  /** Time spent in the gateway itself rather than waiting on the backend. */
  overheadMs: number;
}

export interface GatewayRouteDeps {
  routes: CompiledRouteTable;
  pools: BackendPools;
  /**
   * Relay's server in this process (embedded mode): /v1 and /v1beta calls are handed to it rather than
   * forwarded over a second HTTP exchange, except a chunked body, which is forwarded to be counted.
   */
  relayInProcess?: InProcessHandler;
  web?: WebStatic;
  clientAddress: ClientAddressResolver;
  /** Per client address: /api calls, and model API calls that name no API key. */
  limiter: ClientRateLimiter;
  /**
   * Per client address, for model API calls (/v1, /v1beta) that name an API key: a paying client's,
   * which relay limits per key and per user; unlimited here unless the operator sets one.
   */
  keyedModelCallLimiter: ClientRateLimiter;
  cors: CorsPolicy;
  session: SessionStep;
  /** Body limit of /v1 and /v1beta (relay). */
  bodyLimitBytes: number;
  /** Body limit of /api (the other services), never above bodyLimitBytes. */
  apiBodyLimitBytes: number;
  /** Body limit of the relay's audio uploads (RELAY_UPLOAD_PATHS). */
  uploadBodyLimitBytes: number;
  observe(observation: ProxyObservation): void;
  /** `requestId`: the call's, which the log line names (the gateway keeps no async-local context). */
  onBackendError(service: BackendService, error: Error, requestId: string): void;
}

const PROXIED_PREFIXES = ['/api', '/v1', '/v1beta'];

/**
 * The edge: every /api, /v1 and /v1beta request streams to the service that owns it; anything
 * else is the web app. Bodies are never parsed here: the routes live in their own Fastify scope
 * whose only content-type parser leaves the body as the raw stream.
 */
export async function registerGatewayRoutes(fastify: FastifyInstance, deps: GatewayRouteDeps): Promise<void> {
  function forwardRequest(request: FastifyRequest, reply: FastifyReply): Promise<void> | undefined {
    return forward(request, reply, deps);
  }

  await fastify.register(async function gatewayScope(scope) {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', leaveBodyAsStream);

    // Forwarding starts in the route's own onRequest hook: the reply is hijacked there, so Fastify
    // skips its content-type parser, preParsing, validation and preHandler steps, which the profile
    // showed costing every /v1 call (the parser binds an AsyncResource per request). The handler is
    // the same call, for the path Fastify would take if a hook ever let the request through.
    const route = { onRequest: forwardRequest, handler: forwardRequest };
    for (const prefix of PROXIED_PREFIXES) {
      scope.all(prefix, route);
      scope.all(`${prefix}/*`, route);
    }

    const web = deps.web;
    if (web?.available()) {
      const serveWebApp = webApp(web);
      scope.get('/', serveWebApp);
      scope.get('/*', serveWebApp);
    }
  });
}

function leaveBodyAsStream(_request: FastifyRequest, _payload: unknown, done: (error: null) => void): void {
  done(null);
}

/** Everything outside the proxied prefixes: the web app's files, its index for its own routes. */
function webApp(web: WebStatic): (request: FastifyRequest, reply: FastifyReply) => void {
  return function serveWebApp(request, reply) {
    reply.hijack();
    // Hijacked: the headers the platform set on the Fastify reply are never written.
    reply.raw.setHeader('x-request-id', request.id);
    web.serve(request.raw, reply.raw, request.url);
  };
}

/** A call the gateway has routed, on its way through the checks to its backend. */
interface EdgeCall {
  method: string;
  req: IncomingMessage;
  res: ServerResponse;
  path: string;
  requestId: string;
  route: RouteEntry;
  client: ClientAddress;
  startedAt: number;
}

/**
 * The edge's steps for one call, each a plain function that goes on to the next at once when nothing
 * is waited for (a /v1 call: no rate limit to consume, no session to look up) and through a promise
 * only when something is: as an async function, the steps cost every call a promise, a suspended frame
 * and a reaction per `await` (bench/ANALYSIS.md, "The gateway's allocation per call"). A promise
 * returned is Fastify's to wait on, as the async hook's was; a throw reaches Fastify the same way.
 */
function forward(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: GatewayRouteDeps,
): Promise<void> | undefined {
  if (reply.sent) return undefined;
  reply.hijack();
  const startedAt = performance.now();
  const req = request.raw;
  const res = reply.raw;
  const path = request.url;
  const requestId = request.id;

  // The request id goes out with each answer's own headers (one writeHead, no header stored ahead of
  // it), except on a cross-origin call, whose CORS headers are stored on the response first.
  if (req.headers.origin !== undefined) {
    res.setHeader('x-request-id', requestId);
    if (deps.cors.apply(req, res, path)) return undefined;
  }

  const route = deps.routes.match(path);
  if (!route) {
    const noRoute = { method: request.method, path: path.split('?')[0]! };
    refuse(
      res,
      requestId,
      path,
      404,
      ErrorCode.NotFound,
      gatewayMessage('no_route', path, req.headers, noRoute),
    );
    return undefined;
  }

  const client = deps.clientAddress.resolve(req);
  const call: EdgeCall = { method: request.method, req, res, path, requestId, route, client, startedAt };
  const limiter =
    route.service === 'relay' && carriesApiKey(req.headers, path) ? deps.keyedModelCallLimiter : deps.limiter;
  const rate = limiter.check(client.ip);
  return rate instanceof Promise
    ? rate.then((decided) => admit(call, decided, deps))
    : admit(call, rate, deps);
}

function admit(call: EdgeCall, rate: RateDecision, deps: GatewayRouteDeps): Promise<void> | undefined {
  if (!rate.allowed) {
    const message = gatewayMessage('rate_limited', call.path, call.req.headers);
    refuse(call.res, call.requestId, call.path, 429, ErrorCode.RateLimited, message, {
      'retry-after': String(rate.retryAfterSeconds),
    });
    return undefined;
  }
  let decided;
  try {
    // Synchronous when nothing is looked up or signed (every /v1 call): no promise to wait for.
    decided = deps.session.decide(call.path, call.route, call.req.headers);
  } catch (err) {
    sessionFailed(call, err, deps);
    return undefined;
  }
  if (decided instanceof Promise) {
    return decided.then(
      (session) => dispatch(call, session, deps),
      (err: unknown) => sessionFailed(call, err, deps),
    );
  }
  dispatch(call, decided, deps);
  return undefined;
}

function sessionFailed({ req, res, requestId, path }: EdgeCall, err: unknown, deps: GatewayRouteDeps): void {
  // The reply is hijacked: nothing answers for us, so every failure must be answered here.
  const error = err instanceof Error ? err : new Error(String(err));
  deps.onBackendError('auth', error, requestId);
  if (error instanceof SessionLookupError) {
    const message = gatewayMessage('service_unavailable', path, req.headers, { service: 'auth' });
    refuse(res, requestId, path, 502, ErrorCode.UpstreamServiceDown, message);
  } else {
    const message = gatewayMessage('session_unchecked', path, req.headers);
    refuse(res, requestId, path, 500, ErrorCode.Internal, message);
  }
}

function dispatch(call: EdgeCall, session: SessionDecision, deps: GatewayRouteDeps): void {
  const { req, res, path, requestId, route, client } = call;
  if (session.kind === 'refuse') {
    refuse(res, requestId, path, session.status, session.code, session.message);
    return;
  }

  const queryAt = path.indexOf('?');
  const bodyLimit = bodyLimitFor(route.service, deps, queryAt === -1 ? path : path.slice(0, queryAt));
  if (declaredOverLimit(req, bodyLimit)) {
    refuseTooLarge(req, res, requestId, path, bodyLimit);
    return;
  }

  const addedHeaders: Record<string, string> = {
    'x-request-id': requestId,
    'x-forwarded-for': client.ip,
    'x-forwarded-proto': client.protocol,
  };
  for (const name in session.headers) addedHeaders[name] = session.headers[name]!;

  const inProcess = route.service === 'relay' ? deps.relayInProcess : undefined;
  if (inProcess !== undefined && bodyLengthDeclared(req)) {
    handOver(inProcess, call, addedHeaders, deps);
    return;
  }

  const body = limitedBody(req, bodyLimit);
  if (!body) {
    refuseTooLarge(req, res, requestId, path, bodyLimit);
    return;
  }

  const proxyCall: ProxyCall = {
    method: call.method,
    path,
    headers: req.headers,
    body,
    addedHeaders,
    requestId,
  };
  // Node's parser hands a request its body only after the request event this runs in, even a small body
  // that came in the packets of its headers: a microtask later it is there, and goes to the backend whole
  // with the request's head (arrivedBody) instead of through a stream. A call without a body goes now.
  if (req.readableLength === 0 && Number(req.headers['content-length']) > 0) {
    queueMicrotask(() => send(call, proxyCall, deps));
  } else {
    send(call, proxyCall, deps);
  }
}

function send(call: EdgeCall, proxyCall: ProxyCall, deps: GatewayRouteDeps): void {
  const settle = (outcome: ProxyOutcome): void => settled(call, outcome, deps);
  try {
    forwardCall(deps.pools.get(call.route.service), proxyCall, call.res, settle);
  } catch (err) {
    // A pool that throws (a closed one) has answered no one: the call still gets an answer.
    const error = err instanceof Error ? err : new Error(String(err));
    settle({ kind: 'backend_failed', error, timings: { dispatchedAt: performance.now() } });
  }
}

function settled(call: EdgeCall, outcome: ProxyOutcome, deps: GatewayRouteDeps): void {
  const { req, res, requestId, path, route } = call;
  if (outcome.kind === 'backend_failed') {
    const named = { service: route.service };
    if (outcome.error instanceof BodyTooLargeError) {
      const message = gatewayMessage('body_too_large', path, req.headers, { limit: outcome.error.limit });
      refuse(res, requestId, path, 413, ErrorCode.PayloadTooLarge, message);
    } else if (outcome.error instanceof errors.HeadersTimeoutError) {
      deps.onBackendError(route.service, outcome.error, requestId);
      const message = gatewayMessage('service_timeout', path, req.headers, named);
      refuse(res, requestId, path, 504, ErrorCode.UpstreamTimeout, message);
    } else {
      deps.onBackendError(route.service, outcome.error, requestId);
      const message = gatewayMessage('service_unavailable', path, req.headers, named);
      refuse(res, requestId, path, 502, ErrorCode.UpstreamServiceDown, message);
    }
  } else if (outcome.kind === 'backend_broke') {
    deps.onBackendError(route.service, outcome.error, requestId);
  }

  // Streaming overlaps forwarding with the backend's own work, so the gateway's share is what it
  // spent before dispatching (routing, limits) — or everything, when the backend never answered.
  const { dispatchedAt, headersAt } = outcome.timings;
  deps.observe({
    service: route.service,
    outcome: outcome.kind,
    status: outcome.kind === 'completed' ? outcome.status : res.statusCode,
    overheadMs: headersAt === undefined ? performance.now() - call.startedAt : dispatchedAt - call.startedAt,
  });
}

/**
 * Hands the call to relay's server in this process: relay reads the body from the client's connection
 * and writes its answer (a stream's events too) straight to the client, with no second HTTP exchange.
 * Relay sees the headers a forwarded call would carry (the request id it then answers with, the
 * client's address) and the address as resolved here (markHandedOver), not as its own proxy rules would
 * read the client's socket. The client going away closes the request and response relay serves.
 */
function handOver(
  handler: InProcessHandler,
  { req, res, path, requestId, client, startedAt }: EdgeCall,
  addedHeaders: Record<string, string>,
  deps: GatewayRouteDeps,
): void {
  headersForHandOver(req.headers, addedHeaders);
  markHandedOver(req, client);
  // The gateway's share of a handed-over call is everything before the hand-over.
  const overheadMs = performance.now() - startedAt;
  res.once('close', () =>
    deps.observe({
      service: 'relay',
      outcome: res.writableFinished ? 'completed' : 'client_aborted',
      status: res.statusCode,
      overheadMs,
    }),
  );
  try {
    handler(req, res);
  } catch (err) {
    // Thrown out of relay's request handler (or relay is closing): the call still gets an answer.
    const error = err instanceof Error ? err : new Error(String(err));
    deps.onBackendError('relay', error, requestId);
    const message = gatewayMessage('service_unavailable', path, req.headers, { service: 'relay' });
    refuse(res, requestId, path, 502, ErrorCode.UpstreamServiceDown, message);
  }
}

function refuseTooLarge(
  req: IncomingMessage,
  res: ServerResponse,
  requestId: string,
  path: string,
  limit: number,
): void {
  const message = gatewayMessage('body_too_large', path, req.headers, { limit });
  refuse(res, requestId, path, 413, ErrorCode.PayloadTooLarge, message, { connection: 'close' });
  lingerThenClose(req);
}

/** The gateway's own answer to a call it does not forward (or could not), naming the request. */
function refuse(
  res: ServerResponse,
  requestId: string,
  path: string,
  status: number,
  code: ErrorCode,
  message: string,
  headers: Record<string, string> = {},
): void {
  sendGatewayError(res, path, status, code, message, { 'x-request-id': requestId, ...headers });
}

/** How long a refused upload may keep sending before its connection is cut. */
const LINGER_MS = 5_000;

/**
 * The answer to a refused upload is already sent; the client may still be sending the body. Reading
 * and dropping it for a moment lets the client read that answer (closing with unread data would
 * reset the connection under it), and cutting the connection after that keeps a client that never
 * stops from holding it — and a shutdown — open.
 */
function lingerThenClose(req: IncomingMessage): void {
  req.resume();
  const timer = setTimeout(() => req.socket.destroy(), LINGER_MS);
  timer.unref();
  req.socket.once('close', () => clearTimeout(timer));
}
