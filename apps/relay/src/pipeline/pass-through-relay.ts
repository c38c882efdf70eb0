import { ErrorCode } from '@tollgate/contracts';
import { z } from 'zod';
import { servedModel, type CallerAccess } from '../access/caller-access';
import { RelayError } from '../errors/relay-error';
import type { PriceBook } from '../pricing/price-book';
import { serializeSseEvent } from '../sse/sse';
import type { PassThroughOperation } from '../providers';
import type { JsonObject, NormalizedUsage } from '../canonical';
import { parseClientBody } from '../dialects/request-validation';
import { answerIdOf, type CallStatus } from '../usage/usage-event';
import { costHeaders, withUsageCost, type CallCost } from '../pricing/call-cost';
import type { CallContext } from './call-context';
import type { ClientReply } from './client-reply';
import type { Metering } from './metering';
import type { RelayMetrics } from './relay-metrics';
import { countedPassThroughUsage, maxOutputTokensOf, usageInPayload } from './pass-through-usage';
import type { TokenCounter } from './token-counter';
import { passThroughGenAiOperation } from './gen-ai-spans';
import { dispatchMetered } from './metered-dispatch';
import { parsedEventData, relaySseStream } from './sse-relay';
import type { Dispatched, UpstreamDispatcher } from './upstream-dispatcher';

export interface PassThroughRelayDeps {
  access: CallerAccess;
  prices: PriceBook;
  metering: Metering;
  dispatcher: UpstreamDispatcher;
  metrics: RelayMetrics;
  tokens: TokenCounter;
  now: () => number;
}

const passThroughBody = z.object({ model: z.string().min(1).max(128) }).passthrough();

type Answer = {
  usage: NormalizedUsage | undefined;
  status: CallStatus;
  ttftMs: number | null;
  stream: boolean;
  /** The answer's `id` (completions, responses), for GET /v1/generation. */
  responseId?: string;
};

function headerText(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/**
 * The OpenAI endpoints besides chat (completions, embeddings, responses, images, speech): the body goes
 * to an OpenAI-style channel with the model mapped, the answer comes back as the upstream sent it, and
 * the call is charged by the usage the upstream reports (counted from the input when it reports none).
 */
export class PassThroughRelay {
  constructor(private readonly deps: PassThroughRelayDeps) {}

  async handle(
    context: CallContext,
    operation: PassThroughOperation,
    rawBody: unknown,
    bodyBytes: number,
    reply: ClientReply,
  ): Promise<void> {
    const asked = parseClientBody(passThroughBody, rawBody) as JsonObject & { model: string };
    const model = servedModel(context.caller, asked.model);
    const body = model === asked.model ? asked : { ...asked, model };
    this.deps.access.assertModelAllowed(context.caller, body.model);
    const quote = this.deps.prices.quote(body.model, context.caller.group);
    // Every o200k_base token stands for at least one byte of text, so the body's bytes bound the
    // prompt's tokens. Not cut to the context window: an embeddings or completions batch holds many.
    const promptBound = bodyBytes;
    const metered = await this.deps.metering.open(context, quote, {
      promptTokens: promptBound,
      maxOutputTokens: maxOutputTokensOf(operation, body),
    });
    reply.setHeaders(metered.rateLimitHeaders);
    await dispatchMetered(this.deps, {
      context,
      quote,
      model: body.model,
      metered,
      reply,
      operation: passThroughGenAiOperation(operation),
      build: (adapter, target) => adapter.buildPassThroughRequest(operation, body, target),
      relay: async (dispatched) => {
        const answer = await this.relayAnswer(context, dispatched, body, reply, (usage) =>
          metered.costFor(usage),
        );
        return {
          ...answer,
          usage: answer.usage ?? countedPassThroughUsage(body, promptBound, this.deps.tokens),
        };
      },
    });
  }

  private async relayAnswer(
    context: CallContext,
    dispatched: Dispatched,
    body: JsonObject,
    reply: ClientReply,
    costOf: (usage: NormalizedUsage) => CallCost,
  ): Promise<Answer> {
    const contentType = headerText(dispatched.response.headers['content-type']);
    if (contentType.startsWith('text/event-stream'))
      return this.relayEvents(context, dispatched, body, reply);
    if (contentType.includes('json')) {
      const text = await dispatched.response.body.text();
      let payload: unknown;
      try {
        payload = JSON.parse(text) as unknown;
      } catch {
        throw new RelayError(
          ErrorCode.UpstreamError,
          'The upstream provider sent an answer that could not be read',
        );
      }
      const usage = usageInPayload(payload);
      if (!reply.signal.aborted) {
        // The cost rides on answers that report their usage (completions, embeddings, responses).
        const cost = usage === undefined ? undefined : costOf(usage);
        if (cost !== undefined) reply.setHeaders(costHeaders(cost));
        const withCost = cost === undefined ? undefined : withUsageCost(text, cost);
        reply.sendRaw(200, contentType, withCost ?? text);
      }
      return {
        usage,
        status: 'success',
        ttftMs: null,
        stream: false,
        responseId: answerIdOf(payload),
      };
    }
    return this.relayBytes(context, dispatched, contentType, reply);
  }

  /** Audio and other binary answers, passed on as they arrive. */
  private async relayBytes(
    context: CallContext,
    dispatched: Dispatched,
    contentType: string,
    reply: ClientReply,
  ): Promise<Answer> {
    reply.startStream(contentType === '' ? 'application/octet-stream' : contentType);
    let ttftMs: number | null = null;
    try {
      for await (const bytes of dispatched.response.body as AsyncIterable<Buffer>) {
        ttftMs ??= this.deps.now() - context.startedAt;
        await reply.write(bytes);
      }
      return { usage: undefined, status: 'success', ttftMs, stream: false };
    } catch {
      return {
        usage: undefined,
        status: reply.signal.aborted ? 'client_aborted' : 'upstream_error',
        ttftMs,
        stream: false,
      };
    } finally {
      reply.end();
    }
  }

  /** Completions and Responses streams: events pass through; the usage is read on the way. */
  private async relayEvents(
    context: CallContext,
    dispatched: Dispatched,
    body: JsonObject,
    reply: ClientReply,
  ): Promise<Answer> {
    const streamOptions = body['stream_options'] as { include_usage?: unknown } | undefined;
    const clientWantsUsage = streamOptions?.include_usage === true;
    let usage: NormalizedUsage | undefined;
    let ttftMs: number | null = null;
    const status = await relaySseStream(
      reply,
      dispatched.response.body as AsyncIterable<Buffer>,
      async (event) => {
        const payload = parsedEventData(event.data);
        const found = usageInPayload(payload);
        if (found !== undefined) usage = found;
        const record = payload as { choices?: unknown[]; usage?: unknown } | undefined;
        // Completions' usage chunk was forced upstream; a client that did not ask does not get it.
        if (!clientWantsUsage && record?.usage !== undefined && Array.isArray(record.choices)) {
          if (record.choices.length === 0) return;
          const { usage: _usage, ...rest } = record;
          await reply.write(serializeSseEvent({ ...event, data: JSON.stringify(rest) }));
          return;
        }
        ttftMs ??= this.deps.now() - context.startedAt;
        await reply.write(serializeSseEvent(event));
      },
    );
    return { usage, status, ttftMs, stream: true };
  }
}
