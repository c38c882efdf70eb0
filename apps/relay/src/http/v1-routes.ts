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
import { SERVICE_TOKEN_HEADER, verifyServiceToken, type Logger } from '@tollgate/platform';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { extractApiKey } from '../access/api-key';
import type { Caller } from '../access/caller-access';
import { RelayError, renderRelayError } from '../errors/relay-error';
import { geminiModelPage, toGeminiModel } from '../dialects/gemini/models';
import type { CallableModel } from '../models/model-listing';
import { toOpenAiModel } from '../dialects/openai/models';
import type { CallContext } from '../pipeline/call-context';
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
import type { HotPath } from '../composition';
import { FastifyClientReply } from './fastify-client-reply';
import { bodyBytesOf, registerJsonBodyParser } from './json-body-parser';

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

const byApiKey: Authenticate = (hot, request, protocol) =>
  hot.access.authenticate(extractApiKey(request.headers, request.query), request.ip, protocol);

const LABEL = /^[0-9A-Za-z_-]{1,32}$/;

/**
 * The chat service, for a signed-in user: a service token for relay's chat audience (no key), the user
 * in CHAT_USER_HEADER, the chat's id as the label the usage log shows (`chat #12`, never a title).
 */
const byChatService =
  (secret: string): Authenticate =>
  async (hot, request) => {
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

const PASS_THROUGH_ROUTES: ReadonlyArray<[string, PassThroughOperation]> = [
  ['/v1/completions', 'completions'],
  ['/v1/embeddings', 'embeddings'],
  ['/v1/responses', 'responses'],
  ['/v1/images/generations', 'images.generations'],
  ['/v1/audio/speech', 'audio.speech'],
  ['/v1/moderations', 'moderations'],
  ['/v1/rerank', 'rerank'],
];

const UPLOAD_ROUTES: ReadonlyArray<[string, UploadOperation]> = [
  ['/v1/audio/transcriptions', 'audio.transcriptions'],
  ['/v1/audio/translations', 'audio.translations'],
];

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

/**
 * A caller that authenticates the Gemini way (`x-goog-api-key` or `?key=`, no Bearer) gets Gemini's
 * shapes from the paths Gemini shares with OpenAI (`GET /v1/models`); a Bearer key keeps OpenAI's.
 */
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
  return new RelayError(ErrorCode.ValidationFailed, `Invalid request: ${error.message}`, undefined, status);
}

/**
 * The /v1 and /v1beta routes, straight on Fastify: no Nest controller, guard or interceptor runs per
 * call, and the body is parsed once by Fastify's JSON parser. Errors answer in the caller's protocol.
 */
export function registerV1Routes(fastify: FastifyInstance, deps: V1RouteDeps): void {
  const send = (reply: FastifyReply, protocol: ApiProtocol, error: RelayError): FastifyReply => {
    const rendered = renderRelayError(protocol, error);
    return reply.code(rendered.status).headers(rendered.headers).send(rendered.body);
  };

  /** Runs a call with its accepted caller; every failure ends in the protocol's error shape. */
  const serve =
    (
      protocol: ApiProtocol,
      run: (
        hot: HotPath,
        context: CallContext,
        client: FastifyClientReply,
        request: FastifyRequest,
      ) => Promise<void>,
      authenticate: Authenticate = byApiKey,
    ) =>
    async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
      const startedAt = performance.now();
      const client = new FastifyClientReply(reply);
      try {
        const hot = deps.hotPath();
        if (hot === undefined || !hot.isCaughtUp()) throw notReady();
        const authenticated = authenticate(hot, request, protocol);
        // An API key is checked synchronously: /v1 calls take no extra turn of the event loop here.
        const caller = authenticated instanceof Promise ? await authenticated : authenticated;
        const reportsCharge = authenticate !== byApiKey;
        await run(
          hot,
          { requestId: request.id, protocol, caller, startedAt, reportsCharge },
          client,
          request,
        );
      } catch (error) {
        if (error instanceof ClientGoneError) return reply;
        const relayError = toRelayError(error, request, deps.logger);
        deps.refused(protocol, relayError.code);
        if (client.streamStarted || reply.sent) return reply;
        return send(reply, protocol, relayError);
      }
      return reply;
    };

  const chat = (protocol: ChatClientProtocol) =>
    serve(protocol.protocol, (hot, context, client, request) =>
      hot.chat.handle(
        context,
        protocol,
        {
          body: request.body,
          query: request.query as Record<string, unknown>,
        },
        bodyBytesOf(request),
        client,
      ),
    );

  /** `models/{model}:{method}`: generation through the chat relay, counting, embeddings. */
  const geminiModelMethod = serve('gemini', async (hot, context, client, request) => {
    const { model, method } = geminiAction(request);
    switch (method) {
      case 'countTokens': {
        const counted = geminiCountTokensRequestToChat(model, request.body);
        const total = await hot.tokenCount.count(context, counted, client.signal);
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
  });

  const countAnthropicTokens = serve('anthropic', async (hot, context, client, request) => {
    const input_tokens = await hot.tokenCount.count(
      context,
      anthropicCountTokensRequest(request.body),
      client.signal,
    );
    client.sendJson(200, { input_tokens });
  });

  const openAiModels = serve('openai', async (hot, context, client) => {
    client.sendJson(200, { object: 'list', data: hot.models(context.caller).map(toOpenAiModel) });
  });
  const openAiModel = serve('openai', async (hot, context, client, request) => {
    client.sendJson(200, toOpenAiModel(callableModel(hot, context, request)));
  });
  const geminiModels = serve('gemini', async (hot, context, client, request) => {
    const query = request.query as { pageSize?: unknown; pageToken?: unknown };
    client.sendJson(200, geminiModelPage(hot.models(context.caller), query));
  });
  const geminiModel = serve('gemini', async (hot, context, client, request) => {
    client.sendJson(200, toGeminiModel(callableModel(hot, context, request)));
  });

  void fastify.register(async (scope) => {
    registerJsonBodyParser(scope);
    scope.setErrorHandler((error: FastifyError, request, reply) => {
      const protocol = protocolOfPath(request.url);
      return send(reply, protocol, fastifyRefusal(error) ?? toRelayError(error, request, deps.logger));
    });

    scope.post('/v1/chat/completions', chat(openAiChatProtocol));
    scope.post('/v1/messages', chat(anthropicMessagesProtocol));
    scope.post('/v1/messages/count_tokens', countAnthropicTokens);
    // Gemini's API answers the same methods under v1 (google-genai's default) and v1beta.
    scope.post('/v1beta/models/*', geminiModelMethod);
    scope.post('/v1/models/*', geminiModelMethod);
    const chatService = byChatService(deps.internalTokenSecret);
    scope.post(
      RELAY_CHAT_COMPLETION_CALL.path,
      serve(
        'openai',
        (hot, context, client, request) =>
          hot.chat.handle(
            context,
            openAiChatProtocol,
            // Always streamed: the charge travels at the end of the stream.
            { body: { ...(request.body as object), stream: true } },
            bodyBytesOf(request),
            client,
          ),
        chatService,
      ),
    );
    scope.get(
      RELAY_CHAT_MODELS_CALL.path,
      serve(
        'openai',
        async (hot, context, client) => {
          client.sendJson(200, { models: hot.models(context.caller).map((m) => m.name) });
        },
        chatService,
      ),
    );
    for (const [path, operation] of PASS_THROUGH_ROUTES) {
      scope.post(
        path,
        serve('openai', (hot, context, client, request) =>
          hot.passThrough.handle(context, operation, request.body, bodyBytesOf(request), client),
        ),
      );
    }
    // An upload is left as the raw stream: the audio relay spools it without holding it in memory.
    scope.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null, undefined));
    for (const [path, operation] of UPLOAD_ROUTES) {
      scope.post(
        path,
        serve('openai', (hot, context, client, request) =>
          hot.audio.handle(context, operation, { body: request.raw, headers: request.headers }, client),
        ),
      );
    }
    const keyed = (caller: Caller): Caller & { token: IdentityToken } => {
      if (caller.token === null) throw new RelayError(ErrorCode.InvalidApiKey, 'An API key is required');
      return caller as Caller & { token: IdentityToken };
    };
    scope.get(
      '/v1/key',
      serve('openai', async (hot, context, client) => {
        client.sendJson(200, await hot.account.describe(keyed(context.caller)));
      }),
    );
    scope.get(
      '/v1/dashboard/billing/subscription',
      serve('openai', async (hot, context, client) => {
        client.sendJson(200, hot.account.subscription(keyed(context.caller)));
      }),
    );
    scope.get(
      // start_date and end_date are accepted and, as in new-api, the whole spending is reported.
      '/v1/dashboard/billing/usage',
      serve('openai', async (hot, context, client) => {
        client.sendJson(200, hot.account.usage(keyed(context.caller)));
      }),
    );
    scope.get(
      '/v1/generation',
      serve('openai', async (hot, context, client, request) => {
        const id = (request.query as { id?: unknown }).id;
        if (typeof id !== 'string' || id === '' || id.length > 128)
          throw new RelayError(
            ErrorCode.ValidationFailed,
            "Invalid request: id: the answer's id is required",
          );
        client.sendJson(200, await hot.account.generation(keyed(context.caller), id));
      }),
    );
    scope.get('/v1/models', (request, reply) =>
      (authenticatesTheGeminiWay(request) ? geminiModels : openAiModels)(request, reply),
    );
    // A wildcard, since model names may hold a slash (deepseek-ai/DeepSeek-V3).
    scope.get('/v1/models/*', (request, reply) =>
      (authenticatesTheGeminiWay(request) ? geminiModel : openAiModel)(request, reply),
    );
    scope.get('/v1beta/models', geminiModels);
    scope.get('/v1beta/models/*', geminiModel);
  });
}

/** The model named by the path's wildcard, if the caller's key may use it (else 404). */
function callableModel(hot: HotPath, context: CallContext, request: FastifyRequest): CallableModel {
  const name = decodeURIComponent((request.params as { '*': string })['*']);
  const model = hot.models(context.caller).find((m) => m.name === name);
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
    { requestId: request.id, errorId, err: { name: (error as Error).name, frames: framesOf(error) } },
    'unexpected error on the hot path',
  );
  return new RelayError(ErrorCode.Internal, `Internal error (id ${errorId})`);
}

function framesOf(error: unknown): string | undefined {
  const stack = (error as Error | undefined)?.stack;
  return stack?.split('\n').slice(1).join('\n');
}
