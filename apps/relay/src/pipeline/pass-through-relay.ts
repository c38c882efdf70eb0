import type { PassThroughBody } from '../dialects/openai/pass-through-body';
import type { CallEstimateInput } from './metering';
import { serializeSseEvent, type SseEvent } from '../sse/sse';
import type { ChannelTarget, PassThroughOperation, ProviderAdapter, UpstreamHttpRequest } from '../providers';
import type { NormalizedUsage } from '../canonical';
import { answerIdOf, type CallStatus } from '../usage/usage-event';
import { costHeaders, withUsageCost } from '../pricing/call-cost';
import type { CallContext } from './call-context';
import {
  CallLifecycle,
  withModel,
  type AcceptedCall,
  type CallLifecycleDeps,
  type ModelCall,
  type RelayedAnswer,
} from './call-lifecycle';
import type { ClientReply } from './client-reply';
import { answersOf, countedPassThroughUsage, maxOutputTokensOf, usageInPayload } from './pass-through-usage';
import type { TokenCounter } from './token-counter';
import { passThroughGenAiOperation, type GenAiOperation } from './gen-ai-spans';
import { endsAnswer, parsedEventData, relaySseStream } from './sse-relay';
import { parseJsonAnswer } from './upstream-failure';

export interface PassThroughRelayDeps extends CallLifecycleDeps {
  tokens: TokenCounter;
}

/** An answer as relayed, its usage still unknown when the upstream reported none. */
type PassedAnswer = Omit<RelayedAnswer, 'usage'> & { usage: NormalizedUsage | undefined };

function headerText(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/**
 * The OpenAI endpoints besides chat (completions, embeddings, responses, images, speech): the body goes
 * to an OpenAI-style channel with the model mapped, the answer comes back as the upstream sent it, and
 * the call is charged by the usage the upstream reports (counted from the input when it reports none).
 */
export class PassThroughRelay {
  private readonly lifecycle: CallLifecycle;

  constructor(private readonly deps: PassThroughRelayDeps) {
    this.lifecycle = new CallLifecycle(deps);
  }

  async handle(
    context: CallContext,
    operation: PassThroughOperation,
    asked: PassThroughBody,
    bodyBytes: number,
    reply: ClientReply,
  ): Promise<void> {
    await this.lifecycle.run(
      context,
      reply,
      [asked.model],
      (model) => new PassThroughCall(this.deps, operation, withModel(asked, model), bodyBytes),
    );
  }
}

/** One pass-through call on its model: the body as sent, and its answer as the upstream's content type says. */
class PassThroughCall implements ModelCall {
  readonly operation: GenAiOperation;

  constructor(
    private readonly deps: PassThroughRelayDeps,
    private readonly kind: PassThroughOperation,
    private body: PassThroughBody,
    private readonly bodyBytes: number,
  ) {
    this.operation = passThroughGenAiOperation(kind);
  }

  estimate(): CallEstimateInput {
    // Every o200k_base token stands for at least one byte of text, so the body's bytes bound the
    // prompt's tokens. Not cut to the context window: an embeddings or completions batch holds many.
    return {
      promptTokens: this.bodyBytes,
      maxOutputTokens: maxOutputTokensOf(this.kind, this.body),
      answers: answersOf(this.kind, this.body),
    };
  }

  /**
   * A response named no `max_output_tokens` and the balance is tight: the upstream is held to what was
   * reserved. A legacy completion needs nothing (it answers 16 tokens when it names no limit).
   */
  limitAnswer(tokens: number): void {
    if (this.kind === 'responses') this.body = { ...this.body, max_output_tokens: tokens };
  }

  buildRequest(adapter: ProviderAdapter, target: ChannelTarget): UpstreamHttpRequest {
    return adapter.buildPassThroughRequest(this.kind, this.body, target);
  }

  async relayAnswer(call: AcceptedCall): Promise<RelayedAnswer> {
    const answer = await this.relayByContentType(call);
    return {
      ...answer,
      usage: answer.usage ?? countedPassThroughUsage(this.body, this.bodyBytes, this.deps.tokens),
    };
  }

  private relayByContentType(call: AcceptedCall): Promise<PassedAnswer> {
    const contentType = headerText(call.dispatched.response.headers['content-type']);
    if (contentType.startsWith('text/event-stream')) return this.relayEvents(call);
    if (contentType.includes('json')) return this.relayJson(call, contentType);
    return this.relayBytes(call, contentType);
  }

  private async relayJson(
    { reply, metered, dispatched }: AcceptedCall,
    contentType: string,
  ): Promise<PassedAnswer> {
    const text = await dispatched.response.body.text();
    const payload = parseJsonAnswer(text);
    const usage = usageInPayload(payload);
    if (!reply.aborted) {
      // The cost rides on answers that report their usage (completions, embeddings, responses).
      const cost = usage === undefined ? undefined : metered.costFor(usage);
      if (cost !== undefined) reply.setHeaders(costHeaders(cost));
      const withCost = cost === undefined ? undefined : withUsageCost(text, cost);
      reply.sendRaw(200, contentType, withCost ?? text);
    }
    return { usage, status: 'success', ttftMs: null, stream: false, responseId: answerIdOf(payload) };
  }

  /** Audio and other binary answers, passed on as they arrive. */
  private async relayBytes(
    { context, reply, dispatched }: AcceptedCall,
    contentType: string,
  ): Promise<PassedAnswer> {
    reply.startStream(contentType === '' ? 'application/octet-stream' : contentType);
    let ttftMs: number | null = null;
    let status: CallStatus = 'success';
    try {
      for await (const bytes of dispatched.response.body as AsyncIterable<Buffer>) {
        ttftMs ??= this.deps.now() - context.startedAt;
        await reply.write(bytes);
      }
    } catch {
      status = reply.aborted ? 'client_aborted' : 'upstream_error';
    } finally {
      reply.end();
    }
    return { usage: undefined, status, ttftMs, stream: false };
  }

  /** Completions and Responses streams: events pass through; the usage is read on the way. */
  private async relayEvents(call: AcceptedCall): Promise<PassedAnswer> {
    const events = new PassedEvents(this.deps, call, this.body);
    const status = await relaySseStream(
      call.reply,
      call.dispatched.response.body as AsyncIterable<Buffer>,
      events.forward.bind(events),
      () => events.complete,
    );
    return { usage: events.usage, status, ttftMs: events.ttftMs, stream: true };
  }
}

/** An upstream event stream on its way to the client, and what was learnt from it. */
class PassedEvents {
  usage: NormalizedUsage | undefined;
  ttftMs: number | null = null;
  /** The upstream's closing event went by (endsAnswer): its answer is whole. */
  complete = false;
  private readonly clientWantsUsage: boolean;

  constructor(
    private readonly deps: PassThroughRelayDeps,
    private readonly call: AcceptedCall,
    body: PassThroughBody,
  ) {
    const streamOptions = body['stream_options'] as { include_usage?: unknown } | undefined;
    this.clientWantsUsage = streamOptions?.include_usage === true;
  }

  async forward(event: SseEvent): Promise<void> {
    const { context, reply } = this.call;
    const payload = parsedEventData(event.data);
    const found = usageInPayload(payload);
    if (found !== undefined) this.usage = found;
    if (!this.complete) this.complete = endsAnswer(event, payload);
    const record = payload as { choices?: unknown[]; usage?: unknown } | undefined;
    // Completions' usage chunk was forced upstream; a client that did not ask does not get it.
    if (!this.clientWantsUsage && record?.usage !== undefined && Array.isArray(record.choices)) {
      if (record.choices.length === 0) return;
      const { usage: _usage, ...rest } = record;
      await reply.write(serializeSseEvent({ ...event, data: JSON.stringify(rest) }));
      return;
    }
    this.ttftMs ??= this.deps.now() - context.startedAt;
    await reply.write(serializeSseEvent(event));
  }
}
