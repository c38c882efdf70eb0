import type { Logger } from '@tollgate/platform';
import { promptWithinContext, type Quote } from '../pricing/price-book';
import {
  MalformedUpstreamResponseError,
  MIN_THINKING_BUDGET_TOKENS,
  normalizeOpenAiUsage,
  refuseAnthropicOnlyContent,
  toOpenAiUsage,
  withFittedAnswerLimit,
  type ChatCompletionRequest,
  type ChatCompletionResponse,
  type NormalizedUsage,
} from '../canonical';
import {
  answerLimitSentWithoutClientLimit,
  answersGenerated,
  type ChannelTarget,
  type ProviderAdapter,
  type UpstreamHttpRequest,
} from '../providers';
import type { ChatClientProtocol, ChatRouteInput } from '../dialects/chat-client-protocol';
import { mediaTokensBeyondCount, promptTokensUpperBound } from '../token-counting';
import { answerIdOf } from '../usage/usage-event';
import type { CallContext } from './call-context';
import { addUsageCost, costHeaders, withUsageCost } from '../pricing/call-cost';
import {
  CallLifecycle,
  withModel,
  type AcceptedCall,
  type CallLifecycleDeps,
  type ModelCall,
  type RelayedAnswer,
} from './call-lifecycle';
import { ChatStreamRelay, type StreamedChat } from './chat-stream-relay';
import { takeModelFallbacks } from './model-fallbacks';
import { takeOpenRouterFields } from './openrouter-fields';
import { JSON_REPLY_CONTENT_TYPE, type ClientReply } from './client-reply';
import type { CallEstimateInput } from './metering';
import type { TokenCounter } from './token-counter';
import { unreadableAnswer } from './upstream-failure';
import { GeneratedText, usageOrCounted } from './usage-fallback';

export interface ChatRelayDeps extends CallLifecycleDeps {
  logger: Logger;
  tokens: TokenCounter;
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

/**
 * Chat in any client dialect through a channel of any family: the client's request becomes the
 * canonical one, goes to the channel's adapter, and its answer comes back in the client's dialect,
 * chunk by chunk for streams. Priced and reserved before anything is sent; charged once at the end
 * (call-lifecycle.ts).
 */
export class ChatRelay {
  private readonly lifecycle: CallLifecycle;

  constructor(private readonly deps: ChatRelayDeps) {
    this.lifecycle = new CallLifecycle(deps);
  }

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
    takeOpenRouterFields(request);
    // The web chat's calls (the chat service's) name no answer length: a balance that cannot pay for
    // the default one gets a shorter answer rather than a refusal.
    const fitsAnswerToBalance = context.reportsCharge === true;
    await this.lifecycle.run(
      context,
      reply,
      models,
      (model) =>
        new ChatCall(this.deps, {
          protocol,
          input,
          request: withModel(request, model),
          stream,
          bodyBytes,
          fitsAnswerToBalance,
        }),
    );
  }
}

interface ChatCallInput extends StreamedChat {
  stream: boolean;
  bodyBytes: number;
  fitsAnswerToBalance: boolean;
}

/**
 * The request with its answer held to `tokens`. OpenAI's own API (and Azure's) takes
 * `max_completion_tokens` for every model and refuses `max_tokens` for its reasoning models; the
 * compatible providers know `max_tokens`; the Anthropic and Gemini adapters read either.
 */
export function withAnswerLimit(
  request: ChatCompletionRequest,
  tokens: number,
  adapter: Pick<ProviderAdapter, 'name' | 'family'>,
): ChatCompletionRequest {
  return adapter.name === 'openai' || adapter.family === 'azure'
    ? { ...request, max_completion_tokens: tokens }
    : { ...request, max_tokens: tokens };
}

const largerLimit = (a: number | undefined, b: number | undefined): number | undefined =>
  a === undefined ? b : b === undefined ? a : Math.max(a, b);

/** The thinking a call asking `reasoning_effort` needs room for in its answer limit (none for `none`). */
function thinkingTokensOf(request: ChatCompletionRequest): number | undefined {
  const effort = request['reasoning_effort'];
  return typeof effort === 'string' && effort !== 'none' ? MIN_THINKING_BUDGET_TOKENS : undefined;
}

/** A chat call on one model: what it reserves, the channel's request, and the answer in the client's dialect. */
class ChatCall implements ModelCall {
  readonly operation = 'chat';
  private answerLimit: number | undefined;
  private answerLimitFitted = false;

  constructor(
    private readonly deps: ChatRelayDeps,
    private readonly chat: ChatCallInput,
  ) {}

  estimate(quote: Quote): CallEstimateInput {
    const { request, bodyBytes } = this.chat;
    const promptBound = promptWithinContext(quote, promptTokensUpperBound(bodyBytes, request));
    // OpenAI's own API may read either field of a body holding both: the larger is reserved.
    const maxOutputTokens = largerLimit(request.max_completion_tokens, request.max_tokens);
    return {
      promptTokens: promptBound,
      maxOutputTokens,
      answers: answersGenerated(request),
      answerLimitSentByDefault:
        maxOutputTokens === undefined ? answerLimitSentWithoutClientLimit(request) : undefined,
      countPromptTokens:
        bodyBytes <= PROMPT_COUNT_LIMIT_BYTES
          ? () =>
              Math.min(promptBound, withTokenizerMargin(this.countPrompt()) + mediaTokensBeyondCount(request))
          : undefined,
      fitsAnswerToBalance: this.chat.fitsAnswerToBalance,
      thinkingTokens: this.chat.fitsAnswerToBalance ? thinkingTokensOf(request) : undefined,
    };
  }

  limitAnswer(tokens: number, fitted: boolean): void {
    this.answerLimit = tokens;
    this.answerLimitFitted = fitted;
  }

  buildRequest(adapter: ProviderAdapter, target: ChannelTarget): UpstreamHttpRequest {
    const { request } = this.chat;
    // What only Anthropic reads (a PDF document) is refused by another family's channel, not dropped.
    if (adapter.family !== 'anthropic') refuseAnthropicOnlyContent(request);
    let limited = request;
    if (this.answerLimit !== undefined) {
      limited = withAnswerLimit(request, this.answerLimit, adapter);
      if (this.answerLimitFitted) limited = withFittedAnswerLimit(limited);
    }
    return adapter.buildChatRequest(limited, target);
  }

  relayAnswer(call: AcceptedCall): Promise<RelayedAnswer> {
    return this.chat.stream ? new ChatStreamRelay(this.deps, call, this.chat).relay() : this.relayPlain(call);
  }

  /** Tokenised only when the upstream reports no usage (a cut stream, a provider without usage). */
  private countPrompt(): number {
    return this.deps.tokens.countPromptTokens(this.chat.request);
  }

  private countedUsage(answer: ChatCompletionResponse): NormalizedUsage {
    const generated = new GeneratedText(this.deps.tokens);
    generated.addResponse(answer);
    return usageOrCounted(undefined, () => this.countPrompt(), generated);
  }

  private async relayPlain({ reply, metered, dispatched }: AcceptedCall): Promise<RelayedAnswer> {
    const { protocol, request } = this.chat;
    const { response: upstream, route, adapter } = dispatched;
    let text: string;
    let body: unknown;
    let parsed: ChatCompletionResponse;
    try {
      text = await upstream.body.text();
      body = JSON.parse(text);
      parsed = adapter.parseChatResponse(body, {
        created: Math.floor(Date.now() / 1000),
        model: route.upstreamModel,
      });
    } catch (error) {
      if (error instanceof MalformedUpstreamResponseError || error instanceof SyntaxError)
        throw unreadableAnswer();
      throw error;
    }
    // Counted only when the upstream reported no usage (the usual answer reports it); the client is
    // then told the counted usage it is charged, as a stream's last usage chunk tells it.
    const reported = normalizeOpenAiUsage(parsed.usage);
    const usage = reported ?? this.countedUsage(parsed);
    const answer = reported === undefined ? { ...parsed, usage: toOpenAiUsage(usage) } : parsed;
    const rendered = protocol.renderResponse(answer, request.model);
    if (!reply.aborted) {
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
    return {
      usage,
      status: 'success',
      ttftMs: null,
      stream: false,
      responseId: answerIdOf(rendered) ?? parsed.id,
      finishReason: parsed.choices[0]?.finish_reason ?? undefined,
    };
  }
}
