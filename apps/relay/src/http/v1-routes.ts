import { randomUUID } from 'node:crypto';
import {
  CHAT_LABEL_HEADER,
  CHAT_USER_HEADER,
  ErrorCode,
  protocolOfPath,
  RELAY_CHAT_COMPLETION_CALL,
  RELAY_CHAT_MODELS_CALL,
  type ApiProtocol,
  type IdentityToken,
} from '@tollgate/contracts';
import { requestContextOf, SERVICE_TOKEN_HEADER, verifyServiceToken, type Logger } from '@tollgate/platform';
import { handedOverClientOf } from '@tollgate/runtime/main';
import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
} from 'fastify';
import { extractApiKey } from '../access/api-key';
import type { Caller } from '../access/caller-access';
import { RelayError, renderRelayError } from '../errors/relay-error';
import { geminiModelPage, toGeminiModel } from '../dialects/gemini/models';
import { anthropicModelPage, toAnthropicModel } from '../dialects/anthropic/models';
import { findCallableModel, type CallableModel } from '../models/model-listing';
import { toOpenAiModel } from '../dialects/openai/models';
import { callLogIds, type CallContext } from '../pipeline/call-context';
import { ClientGoneError } from '../pipeline/client-reply';
import type { PassThroughOperation, UploadOperation } from '../providers';
import { UntranslatableRequestError } from '../canonical';
import {
  geminiBatchEmbedContentsRequest,
  geminiBatchEmbedContentsResponse,
  geminiEmbedContentRequest,
  geminiEmbedContentResponse,
} from '../dialects/gemini/embeddings';
import { geminiCountTokensRequestToChat, geminiCountTokensResponse } from '../dialects/gemini/count-tokens';
import {
  anthropicCountTokensRequest,
  anthropicMessagesProtocol,
} from '../dialects/anthropic/messages.protocol';
import type { ChatClientProtocol } from '../dialects/chat-client-protocol';
import { geminiGenerateProtocol } from '../dialects/gemini/generate.protocol';
import { openAiChatProtocol } from '../dialects/openai/chat.protocol';
import { parsePassThroughBody } from '../dialects/openai/pass-through-body';
import type { HotPath } from '../composition';
import { FastifyClientReply } from './fastify-client-reply';
import {
  bodyBytesOf,
  isPlainJsonContentType,
  JsonBodyReader,
  registerJsonBodyParser,
} from './json-body-parser';

export interface V1RouteDeps {
  /** The hot path, once the relay has opened its read models. */
  hotPath(): HotPath | undefined;
  logger: Logger;
  refused(protocol: ApiProtocol, outcome: string): void;
  /** Verifies the chat service's service tokens (TOLLGATE_INTERNAL_TOKEN_SECRET). */
  internalTokenSecret: string;
}

/** How a route learns who is calling. */
type Authenticate = (
  hot: HotPath,
  request: FastifyRequest,
  protocol: ApiProtocol,
) => Promise<Caller> | Caller;

/** Who may call a route: a client with an API key, or the chat service for a signed-in user. */
type CallerKind = 'api-key' | 'chat-service';

function authenticateByApiKey(hot: HotPath, request: FastifyRequest, protocol: ApiProtocol): Caller {
  return hot.access.authenticate(
    extractApiKey(request.headers, request.query),
    clientIpOf(request),
    protocol,
  );
}

/**
 * The caller's address: as the gateway resolved it when it handed the request over in-process
 * (embedded mode), for this server would read the client's own socket with proxy rules that are not
 * the gateway's; else as Fastify reads it (the gateway's X-Forwarded-For).
 */
export function clientIpOf(request: FastifyRequest): string {
  return handedOverClientOf(request.raw)?.ip ?? request.ip;
}

const LABEL = /^[0-9A-Za-z_-]{1,32}$/;

/**
 * The chat service, for a signed-in user: a service token for relay's chat audience (no key), the user
 * in CHAT_USER_HEADER, the chat's id as the label the usage log shows (`chat #12`, never a title).
 */
function chatServiceAuthentication(secret: string): Authenticate {
  return async function authenticateChatService(hot, request) {
    const token = request.headers[SERVICE_TOKEN_HEADER];
    try {
      if (typeof token !== 'string' || token === '') throw new Error('no service token');
      await verifyServiceToken(token, secret, RELAY_CHAT_COMPLETION_CALL.audience);
    } catch {
      throw new RelayError(ErrorCode.Unauthenticated, 'A valid service token is required');
    }
    const userId = request.headers[CHAT_USER_HEADER];
    if (typeof userId !== 'string' || !/^[1-9]\d{0,15}$/.test(userId))
      throw new RelayError(ErrorCode.ValidationFailed, `${CHAT_USER_HEADER} must name a user id`);
    const label = request.headers[CHAT_LABEL_HEADER];
    return hot.access.chatCaller(
      userId,
      typeof label === 'string' && LABEL.test(label) ? `chat #${label}` : 'chat',
    );
  };
}

/** One call with its accepted caller: what a route does once the caller is known. */
type V1Handler = (
  hot: HotPath,
  context: CallContext,
  client: FastifyClientReply,
  request: FastifyRequest,
) => Promise<void>;

/** A route's call: the protocol its errors answer in, its handler, and who may call it. */
interface V1Call {
  protocol: ApiProtocol;
  handle: V1Handler;
  /** An API key unless said otherwise. */
  caller?: CallerKind;
}

interface V1Route extends V1Call {
  method: 'GET' | 'POST';
  path: string;
  /**
   * On the paths Gemini shares with OpenAI (`GET /v1/models`), a caller that authenticates the Gemini
   * way (`x-goog-api-key` or `?key=`, no Bearer) gets this call, in Gemini's shapes; a Bearer key keeps
   * OpenAI's.
   */
  geminiWay?: V1Call;
  /**
   * On `GET /v1/models`, which Anthropic shares with OpenAI, a caller that sends `anthropic-version`
   * gets this call, in Anthropic's shapes. Both Anthropic SDKs send that header on every request, and
   * their key as a Bearer token, as OpenAI's do (x-api-key only when set by hand): the key's header
   * cannot tell them apart, the version header can (and Anthropic's API requires it).
   */
  anthropicWay?: V1Call;
}

// ---- the handlers, one per kind of call

/** Chat in a client's dialect (OpenAI Chat Completions, Anthropic Messages), any channel family. */
function chatIn(protocol: ChatClientProtocol): V1Handler {
  return function handleChat(hot, context, client, request) {
    return hot.chat.handle(
      context,
      protocol,
      {
        body: request.body,
        query: request.query as Record<string, unknown>,
        headers: request.headers,
      },
      bodyBytesOf(request),
      client,
    );
  };
}

const GEMINI_ACTION =
  /^([^/:]+):(generateContent|streamGenerateContent|countTokens|embedContent|batchEmbedContents)$/;

/** The model and method of a Gemini `models/{model}:{method}` path. */
function geminiAction(request: FastifyRequest): { model: string; method: string } {
  const action = GEMINI_ACTION.exec((request.params as { '*': string })['*']);
  if (action === null) {
    throw new RelayError(
      ErrorCode.NotFound,
      'Unknown method: use {model}:generateContent, :streamGenerateContent, :countTokens, :embedContent or :batchEmbedContents',
    );
  }
  return { model: decodeURIComponent(action[1]!), method: action[2]! };
}

/** `models/{model}:{method}`: generation through the chat relay, counting, embeddings. */
async function geminiModelMethod(
  hot: HotPath,
  context: CallContext,
  client: FastifyClientReply,
  request: FastifyRequest,
): Promise<void> {
  const { model, method } = geminiAction(request);
  switch (method) {
    case 'countTokens': {
      const counted = geminiCountTokensRequestToChat(model, request.body);
      const total = await hot.tokenCount.count(context, counted, client);
      client.sendJson(200, geminiCountTokensResponse(total));
      return;
    }
    case 'embedContent':
      return hot.embeddings.handle(
        context,
        model,
        geminiEmbedContentRequest(model, request.body),
        bodyBytesOf(request),
        client,
        geminiEmbedContentResponse,
      );
    case 'batchEmbedContents':
      return hot.embeddings.handle(
        context,
        model,
        geminiBatchEmbedContentsRequest(model, request.body),
        bodyBytesOf(request),
        client,
        geminiBatchEmbedContentsResponse,
      );
    default:
      return hot.chat.handle(
        context,
        geminiGenerateProtocol,
        {
          body: request.body,
          query: request.query as Record<string, unknown>,
          model,
          stream: method === 'streamGenerateContent',
        },
        bodyBytesOf(request),
        client,
      );
  }
}

async function anthropicCountTokens(
  hot: HotPath,
  context: CallContext,
  client: FastifyClientReply,
  request: FastifyRequest,
): Promise<void> {
  const input_tokens = await hot.tokenCount.count(
    context,
    anthropicCountTokensRequest(request.body, request.headers),
    client,
  );
  client.sendJson(200, { input_tokens });
}

/** The chat service's completion (RELAY_CHAT_COMPLETION_CALL). */
function chatServiceCompletion(
  hot: HotPath,
  context: CallContext,
  client: FastifyClientReply,
  request: FastifyRequest,
): Promise<void> {
  return hot.chat.handle(
    context,
    openAiChatProtocol,
    // Always streamed: the charge travels at the end of the stream.
    { body: { ...(request.body as object), stream: true } },
    bodyBytesOf(request),
    client,
  );
}

/** The chat service's model names (RELAY_CHAT_MODELS_CALL). */
async function chatServiceModels(
  hot: HotPath,
  context: CallContext,
  client: FastifyClientReply,
): Promise<void> {
  client.sendJson(200, { models: hot.models(context.caller).map((m) => m.name) });
}

/** An OpenAI-only operation whose body goes upstream with its model mapped. */
function passThrough(operation: PassThroughOperation): V1Handler {
  return function handlePassThrough(hot, context, client, request) {
    const body = parsePassThroughBody(request.body);
    return hot.passThrough.handle(context, operation, body, bodyBytesOf(request), client);
  };
}

/** An audio upload, left as the raw stream: the audio relay spools it without holding it in memory. */
function audioUpload(operation: UploadOperation): V1Handler {
  return function handleAudioUpload(hot, context, client, request) {
    return hot.audio.handle(context, operation, { body: request.raw, headers: request.headers }, client);
  };
}

/** The caller, if it called with an API key (what the /v1/key family describes). */
function keyedCaller(caller: Caller): Caller & { token: IdentityToken } {
  if (caller.token === null) throw new RelayError(ErrorCode.InvalidApiKey, 'An API key is required');
  return caller as Caller & { token: IdentityToken };
}

async function keyDescription(hot: HotPath, context: CallContext, client: FastifyClientReply): Promise<void> {
  client.sendJson(200, await hot.account.describe(keyedCaller(context.caller)));
}

async function keySubscription(
  hot: HotPath,
  context: CallContext,
  client: FastifyClientReply,
): Promise<void> {
  client.sendJson(200, hot.account.subscription(keyedCaller(context.caller)));
}

/** start_date and end_date are accepted and, as in new-api, the whole spending is reported. */
async function keyUsage(hot: HotPath, context: CallContext, client: FastifyClientReply): Promise<void> {
  client.sendJson(200, hot.account.usage(keyedCaller(context.caller)));
}

async function keyGeneration(
  hot: HotPath,
  context: CallContext,
  client: FastifyClientReply,
  request: FastifyRequest,
): Promise<void> {
  const id = (request.query as { id?: unknown }).id;
  if (typeof id !== 'string' || id === '' || id.length > 128)
    throw new RelayError(ErrorCode.ValidationFailed, "Invalid request: id: the answer's id is required");
  client.sendJson(200, await hot.account.generation(keyedCaller(context.caller), id));
}

async function openAiModelList(
  hot: HotPath,
  context: CallContext,
  client: FastifyClientReply,
): Promise<void> {
  client.sendJson(200, { object: 'list', data: hot.models(context.caller).map(toOpenAiModel) });
}

async function openAiModel(
  hot: HotPath,
  context: CallContext,
  client: FastifyClientReply,
  request: FastifyRequest,
): Promise<void> {
  client.sendJson(200, toOpenAiModel(callableModel(hot, context, request)));
}

async function geminiModelList(
  hot: HotPath,
  context: CallContext,
  client: FastifyClientReply,
  request: FastifyRequest,
): Promise<void> {
  const query = request.query as { pageSize?: unknown; pageToken?: unknown };
  client.sendJson(200, geminiModelPage(hot.models(context.caller), query));
}

async function geminiModel(
  hot: HotPath,
  context: CallContext,
  client: FastifyClientReply,
  request: FastifyRequest,
): Promise<void> {
  client.sendJson(200, toGeminiModel(callableModel(hot, context, request)));
}

async function anthropicModelList(
  hot: HotPath,
  context: CallContext,
  client: FastifyClientReply,
  request: FastifyRequest,
): Promise<void> {
  const query = request.query as { limit?: unknown; after_id?: unknown; before_id?: unknown };
  client.sendJson(200, anthropicModelPage(hot.models(context.caller), query));
}

async function anthropicModel(
  hot: HotPath,
  context: CallContext,
  client: FastifyClientReply,
  request: FastifyRequest,
): Promise<void> {
  client.sendJson(200, toAnthropicModel(callableModel(hot, context, request)));
}

// ---- the route table

const GEMINI_MODEL_LIST: V1Call = { protocol: 'gemini', handle: geminiModelList };
const GEMINI_MODEL: V1Call = { protocol: 'gemini', handle: geminiModel };
const ANTHROPIC_MODEL_LIST: V1Call = { protocol: 'anthropic', handle: anthropicModelList };
const ANTHROPIC_MODEL: V1Call = { protocol: 'anthropic', handle: anthropicModel };

/** Every /v1 and /v1beta route, with its call. */
const V1_ROUTES: readonly V1Route[] = [
  {
    method: 'POST',
    path: '/v1/chat/completions',
    protocol: openAiChatProtocol.protocol,
    handle: chatIn(openAiChatProtocol),
  },
  {
    method: 'POST',
    path: '/v1/messages',
    protocol: anthropicMessagesProtocol.protocol,
    handle: chatIn(anthropicMessagesProtocol),
  },
  { method: 'POST', path: '/v1/messages/count_tokens', protocol: 'anthropic', handle: anthropicCountTokens },
  // Gemini's API answers the same methods under v1 (google-genai's default) and v1beta.
  { method: 'POST', path: '/v1beta/models/*', protocol: 'gemini', handle: geminiModelMethod },
  { method: 'POST', path: '/v1/models/*', protocol: 'gemini', handle: geminiModelMethod },
  {
    method: 'POST',
    path: RELAY_CHAT_COMPLETION_CALL.path,
    protocol: 'openai',
    handle: chatServiceCompletion,
    caller: 'chat-service',
  },
  {
    method: 'GET',
    path: RELAY_CHAT_MODELS_CALL.path,
    protocol: 'openai',
    handle: chatServiceModels,
    caller: 'chat-service',
  },
  { method: 'POST', path: '/v1/completions', protocol: 'openai', handle: passThrough('completions') },
  { method: 'POST', path: '/v1/embeddings', protocol: 'openai', handle: passThrough('embeddings') },
  { method: 'POST', path: '/v1/responses', protocol: 'openai', handle: passThrough('responses') },
  {
    method: 'POST',
    path: '/v1/images/generations',
    protocol: 'openai',
    handle: passThrough('images.generations'),
  },
  { method: 'POST', path: '/v1/audio/speech', protocol: 'openai', handle: passThrough('audio.speech') },
  { method: 'POST', path: '/v1/moderations', protocol: 'openai', handle: passThrough('moderations') },
  { method: 'POST', path: '/v1/rerank', protocol: 'openai', handle: passThrough('rerank') },
  {
    method: 'POST',
    path: '/v1/audio/transcriptions',
    protocol: 'openai',
    handle: audioUpload('audio.transcriptions'),
  },
  {
    method: 'POST',
    path: '/v1/audio/translations',
    protocol: 'openai',
    handle: audioUpload('audio.translations'),
  },
  { method: 'GET', path: '/v1/key', protocol: 'openai', handle: keyDescription },
  { method: 'GET', path: '/v1/dashboard/billing/subscription', protocol: 'openai', handle: keySubscription },
  { method: 'GET', path: '/v1/dashboard/billing/usage', protocol: 'openai', handle: keyUsage },
  { method: 'GET', path: '/v1/generation', protocol: 'openai', handle: keyGeneration },
  {
    method: 'GET',
    path: '/v1/models',
    protocol: 'openai',
    handle: openAiModelList,
    geminiWay: GEMINI_MODEL_LIST,
    anthropicWay: ANTHROPIC_MODEL_LIST,
  },
  // A wildcard, since model names may hold a slash (deepseek-ai/DeepSeek-V3).
  {
    method: 'GET',
    path: '/v1/models/*',
    protocol: 'openai',
    handle: openAiModel,
    geminiWay: GEMINI_MODEL,
    anthropicWay: ANTHROPIC_MODEL,
  },
  { method: 'GET', path: '/v1beta/models', ...GEMINI_MODEL_LIST },
  { method: 'GET', path: '/v1beta/models/*', ...GEMINI_MODEL },
];

// ---- serving a route

function authenticatesTheGeminiWay(request: FastifyRequest): boolean {
  if (request.headers.authorization !== undefined) return false;
  return (
    request.headers['x-goog-api-key'] !== undefined || (request.query as { key?: unknown }).key !== undefined
  );
}

const notReady = (): RelayError =>
  new RelayError(ErrorCode.ServiceUnavailable, 'The relay is starting; try again in a moment', 1);

/** Fastify's own refusals (body too large, bad JSON, wrong content type) in the protocol's words. */
function fastifyRefusal(error: FastifyError): RelayError | undefined {
  const status = error.statusCode;
  if (status === undefined || status < 400 || status >= 500) return undefined;
  if (status === 413) return new RelayError(ErrorCode.PayloadTooLarge, 'The request body is too large');
  // curl's -d without -H sends application/x-www-form-urlencoded: say what to send instead.
  const message = status === 415 ? UNSUPPORTED_CONTENT_TYPE : error.message;
  return new RelayError(ErrorCode.ValidationFailed, `Invalid request: ${message}`, undefined, status);
}

const UNSUPPORTED_CONTENT_TYPE =
  'this Content-Type is not accepted: send the body as JSON with Content-Type: application/json ' +
  '(audio uploads as multipart/form-data)';

/**
 * Anthropic's API names each answer's request in `request-id`, which @anthropic-ai/sdk and the Python
 * SDK read into `_request_id` and their errors' `requestID` (the id a client quotes to support). The
 * same id as `x-request-id`, which OpenAI's SDKs read.
 */
const ANTHROPIC_REQUEST_ID_HEADER = 'request-id';

function nameRequestTheAnthropicWay(request: FastifyRequest, reply: FastifyReply): void {
  void reply.header(ANTHROPIC_REQUEST_ID_HEADER, request.id);
}

function sendRelayError(reply: FastifyReply, protocol: ApiProtocol, error: RelayError): FastifyReply {
  const rendered = renderRelayError(protocol, error);
  return reply.code(rendered.status).headers(rendered.headers).send(rendered.body);
}

type FastifyHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;

/**
 * The /v1 and /v1beta routes, straight on Fastify: no Nest controller, guard or interceptor runs per
 * call, and the body is parsed once by Fastify's JSON parser. Errors answer in the caller's protocol.
 */
export function registerV1Routes(fastify: FastifyInstance, deps: V1RouteDeps): void {
  const authenticators: Record<CallerKind, Authenticate> = {
    'api-key': authenticateByApiKey,
    'chat-service': chatServiceAuthentication(deps.internalTokenSecret),
  };

  /** Runs a call with its accepted caller; every failure ends in the protocol's error shape. */
  function serve({ protocol, handle, caller: callerKind = 'api-key' }: V1Call): FastifyHandler {
    const authenticate = authenticators[callerKind];
    const reportsCharge = callerKind !== 'api-key';
    const anthropic = protocol === 'anthropic';
    return async function serveCall(request, reply) {
      const startedAt = performance.now();
      if (anthropic) nameRequestTheAnthropicWay(request, reply);
      const client = new FastifyClientReply(reply);
      try {
        const hot = deps.hotPath();
        if (hot === undefined || !hot.isCaughtUp()) throw notReady();
        const authenticated = authenticate(hot, request, protocol);
        // An API key is checked synchronously: /v1 calls take no extra turn of the event loop here.
        const caller = authenticated instanceof Promise ? await authenticated : authenticated;
        // Relay's app runs without async-local context: the call carries its request's ids from here.
        const { requestId, correlationId } = requestContextOf(request);
        await handle(
          hot,
          { requestId, correlationId, protocol, caller, startedAt, reportsCharge },
          client,
          request,
        );
      } catch (error) {
        if (error instanceof ClientGoneError) return reply;
        const relayError = toRelayError(error, request, deps.logger);
        deps.refused(protocol, relayError.code);
        if (client.streamStarted || reply.sent) return reply;
        return sendRelayError(reply, protocol, relayError);
      }
      return reply;
    };
  }

  function handlerOf(route: V1Route): FastifyHandler {
    const served = serve(route);
    if (route.geminiWay === undefined && route.anthropicWay === undefined) return served;
    const servedTheGeminiWay = route.geminiWay === undefined ? served : serve(route.geminiWay);
    const servedTheAnthropicWay = route.anthropicWay === undefined ? served : serve(route.anthropicWay);
    return function serveInCallersDialect(request, reply) {
      if (request.headers['anthropic-version'] !== undefined) return servedTheAnthropicWay(request, reply);
      return (authenticatesTheGeminiWay(request) ? servedTheGeminiWay : served)(request, reply);
    };
  }

  function answerFastifyRefusal(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
    const protocol = protocolOfPath(request.url);
    if (protocol === 'anthropic') nameRequestTheAnthropicWay(request, reply);
    return sendRelayError(
      reply,
      protocol,
      fastifyRefusal(error) ?? toRelayError(error, request, deps.logger),
    );
  }

  void fastify.register(async function v1Scope(scope) {
    registerJsonBodyParser(scope);
    // An upload is left as the raw stream (see audioUpload).
    scope.addContentTypeParser('multipart/form-data', leaveBodyUnparsed);
    scope.setErrorHandler(answerFastifyRefusal);
    const bodies = new JsonBodyReader(scope, scope.initialConfig.bodyLimit ?? DEFAULT_BODY_LIMIT_BYTES);

    /**
     * A call is served from its route's onRequest hook, its JSON body read there: Fastify's content-type
     * parser, which the profile showed binding an AsyncResource per request, and its preParsing,
     * preValidation and preHandler steps are skipped. The hook then never calls `done`, so Fastify's
     * handler does not run again; the reply still goes out through Fastify (onSend, onResponse: access
     * log, metrics). Any other body (uploads, other content types) takes Fastify's own path to the same
     * handler.
     */
    function servedOnRequest(handler: FastifyHandler) {
      function serveNow(request: FastifyRequest, reply: FastifyReply): void {
        handler(request, reply).catch((error: unknown) => {
          if (!reply.sent) void reply.send(error);
        });
      }
      return function serveOnRequest(
        request: FastifyRequest,
        reply: FastifyReply,
        done: HookHandlerDoneFunction,
      ): void {
        if (request.method === 'GET' || request.method === 'HEAD') {
          serveNow(request, reply);
          return;
        }
        if (!isPlainJsonContentType(request.headers['content-type'])) {
          done();
          return;
        }
        bodies.read(request).then(
          (body) => {
            request.body = body;
            serveNow(request, reply);
          },
          (error: FastifyError) => {
            // As Fastify does after a body it could not read: the client may still be sending. A body
            // read whole (one that is not JSON) leaves the connection usable: the gateway's client keeps
            // it, whether the gateway forwarded the call or handed it over on the client's connection.
            if (!request.raw.complete) void reply.header('connection', 'close');
            answerFastifyRefusal(error, request, reply);
          },
        );
      };
    }

    for (const route of V1_ROUTES) {
      const handler = handlerOf(route);
      scope.route({
        method: route.method,
        url: route.path,
        onRequest: servedOnRequest(handler),
        handler,
      });
    }
  });
}

/** Fastify's own default, should the server have been given none. */
const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

function leaveBodyUnparsed(
  _request: FastifyRequest,
  _payload: unknown,
  done: (error: Error | null, body?: unknown) => void,
): void {
  done(null, undefined);
}

/** The model named by the path's wildcard (or its OpenRouter name), if the caller's key may use it (else 404). */
function callableModel(hot: HotPath, context: CallContext, request: FastifyRequest): CallableModel {
  const name = decodeURIComponent((request.params as { '*': string })['*']);
  const model = findCallableModel(hot.models(context.caller), name);
  if (model === undefined) throw new RelayError(ErrorCode.ModelNotFound, `The model ${name} does not exist`);
  return model;
}

/** Expected refusals keep their words; anything else is logged under an id the client is given. */
function toRelayError(error: unknown, request: FastifyRequest, logger: Logger): RelayError {
  if (error instanceof RelayError) return error;
  if (error instanceof UntranslatableRequestError)
    return new RelayError(ErrorCode.ValidationFailed, error.message);
  const errorId = randomUUID();
  logger.error(
    // The stack without its first line: a message may quote the input (JSON.parse does), frames never do.
    {
      ...callLogIds(requestContextOf(request)),
      errorId,
      err: { name: (error as Error).name, frames: framesOf(error) },
    },
    'unexpected error on the hot path',
  );
  return new RelayError(ErrorCode.Internal, `Internal error (id ${errorId})`);
}

function framesOf(error: unknown): string | undefined {
  const stack = (error as Error | undefined)?.stack;
  return stack?.split('\n').slice(1).join('\n');
}
