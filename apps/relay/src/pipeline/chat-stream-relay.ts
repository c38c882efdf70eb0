import { ErrorCode } from '@tollgate/contracts';
import type { Logger } from '@tollgate/platform';
import {
  ChunkBuilder,
  MalformedUpstreamResponseError,
  normalizeOpenAiUsage,
  toOpenAiUsage,
  type ChatCompletionChunk,
  type ChatCompletionRequest,
  type NormalizedUsage,
} from '../canonical';
import type { ChatClientProtocol, ChatRouteInput, ClientChatStream } from '../dialects/chat-client-protocol';
import { RelayError } from '../errors/relay-error';
import type { CallCost } from '../pricing/call-cost';
import { UpstreamStreamError, type ChatStreamTransformer } from '../providers';
import { SseDecoder, SseProtocolError, type SseEvent } from '../sse/sse';
import type { CallStatus } from '../usage/usage-event';
import type { AcceptedCall, RelayedAnswer } from './call-lifecycle';
import { callLogIds } from './call-context';
import { chargeEvent } from './charge-event';
import { ClientGoneError } from './client-reply';
import type { RelayMetrics } from './relay-metrics';
import type { TokenCounter } from './token-counter';
import { unreadableAnswer } from './upstream-failure';
import { GeneratedText, usageOrCounted } from './usage-fallback';

export interface ChatStreamDeps {
  metrics: RelayMetrics;
  logger: Logger;
  tokens: TokenCounter;
  now: () => number;
}

/** The chat call a stream answers: the client's dialect and what it asked, on the model it is served on. */
export interface StreamedChat {
  protocol: ChatClientProtocol;
  input: ChatRouteInput;
  request: ChatCompletionRequest;
}

/**
 * One chat answer streamed to the client in its dialect, chunk by chunk as the channel sends it. How
 * the stream ended is the call's status; one the upstream broke off before its finish reason ends with
 * an error in the client's dialect, one broken after it ends as a complete answer. The usage is the
 * upstream's, else the prompt and what was generated, counted.
 */
export class ChatStreamRelay {
  private readonly out: ClientChatStream;
  private readonly transformer: ChatStreamTransformer;
  private readonly generated: GeneratedText;
  private ttftMs: number | null = null;
  private ttftObserved = false;
  private usage: NormalizedUsage | undefined;
  private responseId: string | undefined;
  /** Set by the upstream's finish reason: from then on its answer is complete, whatever the body does. */
  private finishReason: string | undefined;
  /** A usage chunk went to the client's dialect. */
  private usageTold = false;

  constructor(
    private readonly deps: ChatStreamDeps,
    private readonly call: AcceptedCall,
    private readonly chat: StreamedChat,
  ) {
    this.out = chat.protocol.createStream(chat.request, chat.input);
    this.transformer = call.dispatched.adapter.createChatStreamTransformer({
      created: Math.floor(Date.now() / 1000),
      model: call.dispatched.route.upstreamModel,
    });
    this.generated = new GeneratedText(deps.tokens);
  }

  async relay(): Promise<RelayedAnswer> {
    const { reply, dispatched } = this.call;
    const decoder = new SseDecoder();
    let status: CallStatus = 'success';
    reply.startStream(this.out.contentType);
    try {
      // What one read of the upstream's body completed goes to the client in one write, at once.
      for await (const bytes of dispatched.response.body as AsyncIterable<Buffer>) {
        await this.relayEvents(decoder.push(bytes));
      }
      await this.relayEvents(decoder.end(), () => this.ending());
    } catch (error) {
      status = reply.aborted || error instanceof ClientGoneError ? 'client_aborted' : 'upstream_error';
      if (status === 'upstream_error') status = await this.endBroken(error);
    } finally {
      reply.end();
    }
    return {
      usage: this.finalUsage(),
      status,
      ttftMs: this.ttftMs,
      stream: true,
      responseId: this.responseId,
      finishReason: this.finishReason,
    };
  }

  /**
   * Writes `events` in the client's dialect (and then `last`'s text) in one write. What was rendered
   * before an event failed is still written, ahead of the error the caller reports.
   */
  private async relayEvents(events: SseEvent[], last?: () => string): Promise<void> {
    let text = '';
    let failure: { error: unknown } | undefined;
    try {
      for (const event of events) text += this.render(this.transformer.push(event));
      if (last !== undefined) text += last();
    } catch (error) {
      failure = { error };
    }
    if (text !== '') {
      const written = this.call.reply.write(text);
      this.observeFirstToken();
      await written;
    }
    if (failure !== undefined) throw failure.error;
  }

  /**
   * The time to first token goes to the metrics in a tick queued behind the write that carried it, so
   * after the response has let that write go (Node sends a turn's writes in a tick of its own): an
   * observation costs a few µs, but tens in a process woken from a pause, on the way to the first token.
   */
  private observeFirstToken(): void {
    if (this.ttftMs === null || this.ttftObserved) return;
    this.ttftObserved = true;
    const seconds = this.ttftMs / 1000;
    const { metered, dispatched } = this.call;
    process.nextTick(() =>
      this.deps.metrics.firstToken(dispatched.adapter.name, metered.quote.model, seconds),
    );
  }

  /**
   * What closes a complete answer: the transformer's last chunks, a usage chunk of the charged usage
   * when none went out (an upstream that reports none is charged what was counted, and a client that
   * asked for usage is told that; a dialect that shows no usage drops it), the chat service's charge,
   * the dialect's end.
   */
  private ending(): string {
    const { context, metered } = this.call;
    let last = this.render(this.transformer.end());
    if (!this.usageTold) last += this.render([this.usageChunk()]);
    const charge = context.reportsCharge
      ? chargeEvent(metered.quote, this.finalUsage(), metered.answerLimit)
      : '';
    return last + charge + this.out.end();
  }

  /**
   * The upstream's body failed (broken connection, an error or unreadable event) after the stream
   * started. An answer whose finish reason had arrived is complete: the client gets the ending a
   * clean stream has (with a usage chunk of the charged usage when the upstream's never came, so a
   * client that asked for usage is told the cost), and the call is a success, charged. One broken
   * off before it ends with an error in the client's dialect and is not charged.
   */
  private async endBroken(error: unknown): Promise<CallStatus> {
    if (this.finishReason === undefined) {
      this.logFailure(error, 'upstream stream failed after it started');
      await this.tryWrite(this.out.fail(streamFailure(error)));
      return 'upstream_error';
    }
    this.logFailure(error, 'upstream stream failed after its answer was complete');
    return (await this.tryWrite(this.ending())) ? 'success' : 'client_aborted';
  }

  /** The final usage as the canonical usage chunk, for a stream whose upstream told none. */
  private usageChunk(): ChatCompletionChunk {
    const chunks = new ChunkBuilder(Math.floor(Date.now() / 1000));
    chunks.id = this.responseId ?? '';
    chunks.model = this.call.dispatched.route.upstreamModel;
    return chunks.usage(toOpenAiUsage(this.finalUsage()));
  }

  /** The chunks in the client's dialect, counted as generated (a client leaving is charged for them). */
  private render(chunks: ChatCompletionChunk[]): string {
    const { context } = this.call;
    let text = '';
    for (const chunk of chunks) {
      this.generated.addChunk(chunk);
      this.responseId ??= chunk.id;
      this.finishReason = chunk.choices[0]?.finish_reason ?? this.finishReason;
      text += this.out.push(chunk, this.costInChunk(chunk));
      if (this.ttftMs === null && GeneratedText.hasOutput(chunk))
        this.ttftMs = this.deps.now() - context.startedAt;
    }
    return text;
  }

  /** The upstream's usage, else the prompt and the answer so far, counted (only then tokenised). */
  private finalUsage(): NormalizedUsage {
    return (this.usage ??= usageOrCounted(
      this.transformer.usage(),
      () => this.deps.tokens.countPromptTokens(this.chat.request),
      this.generated,
    ));
  }

  /** The charge for the usage a chunk carries (an OpenAI stream's last chunk), else nothing. */
  private costInChunk(chunk: ChatCompletionChunk): CallCost | undefined {
    if (chunk.usage === undefined || chunk.usage === null) return undefined;
    this.usageTold = true;
    const usage = normalizeOpenAiUsage(chunk.usage);
    return usage === undefined ? undefined : this.call.metered.costFor(usage);
  }

  /** Whether the client took `text`. */
  private async tryWrite(text: string): Promise<boolean> {
    try {
      await this.call.reply.write(text);
      return true;
    } catch {
      // The client left as well; nothing more to tell it.
      return false;
    }
  }

  private logFailure(error: unknown, message: string): void {
    this.deps.logger.warn(
      {
        ...callLogIds(this.call.context),
        channelId: this.call.dispatched.route.channel.id,
        reason: (error as Error).name,
      },
      message,
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
    return unreadableAnswer();
  return new RelayError(ErrorCode.UpstreamError, 'The upstream provider broke off the answer');
}
