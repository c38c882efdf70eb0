import { ErrorCode } from '@tollgate/contracts';
import type { Logger } from '@tollgate/platform';
import { servedModel, type CallerAccess } from '../access/caller-access';
import { RelayError } from '../errors/relay-error';
import { promptWithinContext, type PriceBook } from '../pricing/price-book';
import {
  MalformedUpstreamResponseError,
  normalizeOpenAiUsage,
  type ChatCompletionChunk,
  type ChatCompletionRequest,
  type NormalizedUsage,
} from '../canonical';
import { SseDecoder, SseProtocolError } from '../sse/sse';
import { UpstreamStreamError } from '../providers';
import type { ChatClientProtocol, ChatRouteInput, ClientChatStream } from '../dialects/chat-client-protocol';
import { promptTokensUpperBound } from '../token-counting';
import { answerIdOf, type CallStatus } from '../usage/usage-event';
import type { CallContext } from './call-context';
import { addUsageCost, costHeaders, withUsageCost, type CallCost } from '../pricing/call-cost';
import { chargeEvent } from './charge-event';
import { takeModelFallbacks, worthAnotherModel } from './model-fallbacks';
import { ClientGoneError, JSON_REPLY_CONTENT_TYPE, type ClientReply } from './client-reply';
import type { MeteredCall, Metering } from './metering';
import type { RelayMetrics } from './relay-metrics';
import type { TokenCounter } from './token-counter';
import type { Dispatched, UpstreamDispatcher } from './upstream-dispatcher';
import { GeneratedText, usageOrCounted } from './usage-fallback';

export interface ChatRelayDeps {
  access: CallerAccess;
  prices: PriceBook;
  metering: Metering;
  dispatcher: UpstreamDispatcher;
  metrics: RelayMetrics;
  logger: Logger;
  tokens: TokenCounter;
  now: () => number;
}

/**
 * Prompts up to this size are counted for a tight balance (about 1 ms of CPU on this kind of machine);
 * a bigger one keeps the byte bound, since counting it would stall the event loop for every call.
 */
const PROMPT_COUNT_LIMIT_BYTES = 16 * 1024;

/**
 * The count is o200k_base's; other families' tokenizers (Claude's, Gemini's) split some texts into
 * more tokens, and a few add hidden prompt tokens. The margin keeps the estimate above what they bill
 * for ordinary texts; it never goes above the byte bound, which holds for any of them.
 */
const withTokenizerMargin = (counted: number): number => Math.ceil(counted * 1.25) + 16;

const malformed = (): RelayError =>
  new RelayError(ErrorCode.UpstreamError, 'The upstream provider sent an answer that could not be read');

/**
 * Chat in any client dialect through a channel of any family: the client's request becomes the
 * canonical one, goes to the channel's adapter, and its answer comes back in the client's dialect,
 * chunk by chunk for streams. Priced and reserved before anything is sent; charged once at the end.
 */
export class ChatRelay {
  constructor(private readonly deps: ChatRelayDeps) {}

  /**
   * `bodyBytes`: the size of the client's body, which bounds the prompt's tokens for the reservation.
   * A request naming fallbacks (`models`) tries them in order while a model cannot serve it and the
   * client has had nothing yet; the answer's `model` names the one that served.
   */
  async handle(
    context: CallContext,
    protocol: ChatClientProtocol,
    input: ChatRouteInput,
    bodyBytes: number,
    reply: ClientReply,
  ): Promise<void> {
    const request = protocol.toChatRequest(input);
    const stream = protocol.isStream(request, input);
    const models = takeModelFallbacks(request);
    for (let i = 0; ; i++) {
      try {
        const model = servedModel(context.caller, models[i]!);
        const attempt = model === request.model ? request : { ...request, model };
        await this.serve(context, protocol, input, attempt, stream, bodyBytes, reply);
        return;
      } catch (error) {
        const last = i === models.length - 1;
        if (last || reply.streamStarted || reply.signal.aborted || !worthAnotherModel(error)) throw error;
      }
    }
  }

  private async serve(
    context: CallContext,
    protocol: ChatClientProtocol,
    input: ChatRouteInput,
    request: ChatCompletionRequest,
    stream: boolean,
    bodyBytes: number,
    reply: ClientReply,
  ): Promise<void> {
    const model = request.model;
    this.deps.access.assertModelAllowed(context.caller, model);
    const quote = this.deps.prices.quote(model, context.caller.group);
    const promptBound = promptWithinContext(quote, promptTokensUpperBound(bodyBytes, request));
    const metered = await this.deps.metering.open(context, quote, {
      promptTokens: promptBound,
      maxOutputTokens: request.max_completion_tokens ?? request.max_tokens,
      countPromptTokens:
        bodyBytes <= PROMPT_COUNT_LIMIT_BYTES
          ? () => Math.min(promptBound, withTokenizerMargin(this.deps.tokens.countPromptTokens(request)))
          : undefined,
    });
    reply.setHeaders(metered.rateLimitHeaders);
    // Tokenised only when the upstream reports no usage (a cut stream, a provider without usage).
    const promptTokens = (): number => this.deps.tokens.countPromptTokens(request);
    let dispatched: Dispatched;
    try {
      dispatched = await this.deps.dispatcher.dispatch(context, model, reply.signal, (adapter, target) =>
        adapter.buildChatRequest(request, target),
      );
    } catch (error) {
      await metered.abandon();
      throw error;
    }
    if (stream)
      await this.relayStream(context, protocol, input, request, reply, metered, dispatched, promptTokens);
    else await this.relayPlain(protocol, request, reply, metered, dispatched, promptTokens);
  }

  private async relayPlain(
    protocol: ChatClientProtocol,
    request: ChatCompletionRequest,
    reply: ClientReply,
    metered: MeteredCall,
    dispatched: Dispatched,
    promptTokens: () => number,
  ): Promise<void> {
    const { response: upstream, route, adapter, release } = dispatched;
    let text: string;
    let body: unknown;
    let parsed;
    try {
      text = await upstream.body.text();
      body = JSON.parse(text);
      parsed = adapter.parseChatResponse(body, {
        created: Math.floor(Date.now() / 1000),
        model: route.upstreamModel,
      });
    } catch (error) {
      release();
      await metered.abandon();
      if (reply.signal.aborted) throw new ClientGoneError();
      if (error instanceof MalformedUpstreamResponseError || error instanceof SyntaxError) throw malformed();
      throw error;
    }
    release();
    this.deps.metrics.upstream(
      adapter.name,
      route.channel.id,
      metered.quote.model,
      (this.deps.now() - dispatched.sentAt) / 1000,
    );
    const generated = new GeneratedText(this.deps.tokens);
    const reported = normalizeOpenAiUsage(parsed.usage);
    if (reported === undefined) generated.addResponse(parsed);
    const usage = usageOrCounted(reported, promptTokens, generated);
    const rendered = protocol.renderResponse(parsed, request.model);
    if (!reply.signal.aborted) {
      const cost = metered.costFor(usage);
      reply.setHeaders(costHeaders(cost));
      const reportsCost = protocol.protocol === 'openai';
      // The client's dialect is the channel's and nothing was changed: its bytes go out as they came,
      // the cost spliced into their usage object.
      if (rendered === body) {
        const withCost = reportsCost ? withUsageCost(text, cost) : undefined;
        reply.sendRaw(200, JSON_REPLY_CONTENT_TYPE, withCost ?? text);
      } else reply.sendJson(200, reportsCost ? addUsageCost(rendered as object, cost) : rendered);
    }
    await metered.finish({
      channel: route.channel,
      provider: adapter.name,
      upstreamModel: route.upstreamModel,
      usage,
      status: 'success',
      ttftMs: null,
      isStream: false,
      operation: 'chat',
      url: dispatched.url,
      sentAt: dispatched.sentAt,
      responseId: answerIdOf(rendered) ?? parsed.id,
      finishReason: parsed.choices[0]?.finish_reason ?? undefined,
    });
  }

  private async relayStream(
    context: CallContext,
    protocol: ChatClientProtocol,
    input: ChatRouteInput,
    request: ChatCompletionRequest,
    reply: ClientReply,
    metered: MeteredCall,
    dispatched: Dispatched,
    promptTokens: () => number,
  ): Promise<void> {
    const { response: upstream, route, adapter, release } = dispatched;
    const out = protocol.createStream(request, input);
    const decoder = new SseDecoder();
    const transformer = adapter.createChatStreamTransformer({
      created: Math.floor(Date.now() / 1000),
      model: route.upstreamModel,
    });
    const generated = new GeneratedText(this.deps.tokens);
    let ttftMs: number | null = null;
    let status: CallStatus = 'success';
    let usage: NormalizedUsage | undefined;
    let responseId: string | undefined;
    let finishReason: string | undefined;
    const finalUsage = (): NormalizedUsage =>
      (usage ??= usageOrCounted(transformer.usage(), promptTokens, generated));

    const forward = async (chunks: ChatCompletionChunk[]): Promise<void> => {
      for (const chunk of chunks) {
        generated.addChunk(chunk);
        responseId ??= chunk.id;
        finishReason = chunk.choices[0]?.finish_reason ?? finishReason;
        const text = out.push(chunk, this.costInChunk(metered, chunk));
        if (ttftMs === null && GeneratedText.hasOutput(chunk)) {
          ttftMs = this.deps.now() - context.startedAt;
          this.deps.metrics.firstToken(adapter.name, metered.quote.model, ttftMs / 1000);
        }
        if (text !== '') await reply.write(text);
      }
    };

    reply.startStream(out.contentType);
    try {
      for await (const bytes of upstream.body as AsyncIterable<Buffer>) {
        for (const event of decoder.push(bytes)) await forward(transformer.push(event));
      }
      for (const event of decoder.end()) await forward(transformer.push(event));
      await forward(transformer.end());
      if (context.reportsCharge) await reply.write(chargeEvent(metered.quote, finalUsage()));
      await reply.write(out.end());
    } catch (error) {
      status = reply.signal.aborted || error instanceof ClientGoneError ? 'client_aborted' : 'upstream_error';
      if (status === 'upstream_error') {
        this.logStreamFailure(context, route.channel.id, error);
        await this.tryWrite(reply, out, streamFailure(error));
      }
    } finally {
      reply.end();
      release();
    }
    this.deps.metrics.upstream(
      adapter.name,
      route.channel.id,
      metered.quote.model,
      (this.deps.now() - dispatched.sentAt) / 1000,
    );
    await metered.finish({
      channel: route.channel,
      provider: adapter.name,
      upstreamModel: route.upstreamModel,
      usage: finalUsage(),
      status,
      ttftMs,
      isStream: true,
      operation: 'chat',
      url: dispatched.url,
      sentAt: dispatched.sentAt,
      responseId,
      finishReason,
    });
  }

  /** The charge for the usage a chunk carries (an OpenAI stream's last chunk), else nothing. */
  private costInChunk(metered: MeteredCall, chunk: ChatCompletionChunk): CallCost | undefined {
    if (chunk.usage === undefined || chunk.usage === null) return undefined;
    const usage = normalizeOpenAiUsage(chunk.usage);
    return usage === undefined ? undefined : metered.costFor(usage);
  }

  private async tryWrite(reply: ClientReply, out: ClientChatStream, error: RelayError): Promise<void> {
    try {
      await reply.write(out.fail(error));
    } catch {
      // The client left as well; nothing more to tell it.
    }
  }

  private logStreamFailure(context: CallContext, channelId: number, error: unknown): void {
    this.deps.logger.warn(
      { requestId: context.requestId, channelId, reason: (error as Error).name },
      'upstream stream failed after it started',
    );
  }
}

function streamFailure(error: unknown): RelayError {
  if (error instanceof UpstreamStreamError) {
    return new RelayError(
      ErrorCode.UpstreamError,
      'The upstream provider reported an error during the answer',
    );
  }
  if (error instanceof MalformedUpstreamResponseError || error instanceof SseProtocolError)
    return malformed();
  return new RelayError(ErrorCode.UpstreamError, 'The upstream provider broke off the answer');
}
