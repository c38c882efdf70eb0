import { ErrorCode } from '@tollgate/contracts';
import { servedModel, type Caller, type CallerAccess } from '../access/caller-access';
import type { NormalizedUsage } from '../canonical';
import { RelayError } from '../errors/relay-error';
import type { PriceBook, Quote } from '../pricing/price-book';
import type {
  ChannelTarget,
  ProviderAdapter,
  UpstreamHttpRequest,
  UpstreamUploadRequest,
} from '../providers';
import type { CallStatus } from '../usage/usage-event';
import type { CallContext } from './call-context';
import { ClientGoneError, type ClientReply } from './client-reply';
import type { GenAiOperation } from './gen-ai-spans';
import type { CallEstimateInput, MeteredCall, Metering } from './metering';
import { worthAnotherModel } from './model-fallbacks';
import type { RelayMetrics } from './relay-metrics';
import type { Dispatched, UpstreamDispatcher } from './upstream-dispatcher';

/** How an answer went, once it was relayed to the client. */
export interface RelayedAnswer {
  usage: NormalizedUsage;
  status: CallStatus;
  ttftMs: number | null;
  stream: boolean;
  /** The answer's `id` and why it ended, for GET /v1/generation. */
  responseId?: string;
  finishReason?: string;
}

/** A call reserved and accepted by a channel (2xx): what relaying its answer works with. */
export interface AcceptedCall {
  context: CallContext;
  reply: ClientReply;
  metered: MeteredCall;
  dispatched: Dispatched;
}

/**
 * What one relay's call is on one model, and all the lifecycle leaves to the relay: what to reserve,
 * the upstream request, and how the answer reaches the client and what it used.
 */
export interface ModelCall {
  readonly operation: GenAiOperation;
  /** What the reservation holds, at the model's price. */
  estimate(quote: Quote): CallEstimateInput;
  /**
   * Holds the answer to this many tokens; called (before buildRequest) for a call that named no
   * limit: `fitted` when its estimate said `fitsAnswerToBalance` and the balance paid for no answer
   * of the default length, else when the balance is tight (the limit reserved, so the upstream is
   * held to it).
   */
  limitAnswer?(tokens: number, fitted: boolean): void;
  /** The request for a channel's adapter; UnsupportedOperationError skips the channel. */
  buildRequest(adapter: ProviderAdapter, target: ChannelTarget): UpstreamHttpRequest | UpstreamUploadRequest;
  /**
   * Relays the answer to the client and says what it used. Throws only when nothing of it could be
   * relayed (an unreadable answer, a body cut before it was read): the call is then not charged.
   */
  relayAnswer(call: AcceptedCall): Promise<RelayedAnswer>;
}

/** The relay's call on a model, named as the key serves it (after its aliases). */
export type ModelCallFactory = (model: string) => ModelCall;

/** Which models each group's channels serve, in any status (ChannelRouter.listsModel). */
export interface ChannelListing {
  listsModel(model: string, group: string): boolean;
}

/** What admitting a model needs: the key's rights, the prices and, to route, the groups' channels. */
export interface ModelAdmissionDeps {
  access: CallerAccess;
  prices: PriceBook;
  channels: ChannelListing;
}

export interface CallLifecycleDeps extends ModelAdmissionDeps {
  metering: Metering;
  dispatcher: UpstreamDispatcher;
  metrics: RelayMetrics;
  now: () => number;
}

/**
 * The model a call is served on (the key's alias for the one asked, if it has one, without an
 * OpenRouter provider prefix) and its price,
 * once the key may call it: 403 when it may not, 404 for a model without a price and, in the same
 * words, for one no channel of the caller's group lists (another company's private model is not
 * told apart from a made-up one, nor answered 503 for SDKs to retry).
 */
export function admitModel(
  deps: ModelAdmissionDeps,
  caller: Caller,
  asked: string,
): { model: string; quote: Quote } {
  const model = servedModel(caller, asked, deps.prices);
  deps.access.assertModelAllowed(caller, model);
  if (!deps.channels.listsModel(model, caller.group))
    throw new RelayError(ErrorCode.ModelNotFound, `The model ${model} does not exist or has no price`);
  return { model, quote: deps.prices.quote(model, caller.group) };
}

/** The request as sent for a model: the same object when the model is the one it names. */
export function withModel<R extends { model: string }>(request: R, model: string): R {
  return model === request.model ? request : { ...request, model };
}

/**
 * One metered call, the same for every relay (chat in any dialect, the OpenAI pass-through
 * operations, audio uploads, embeddings), from "may this key call the model" to the usage event:
 *
 * 1. admitted: the key's alias applied, the model allowed for the key and priced;
 * 2. reserved: rate limits and the estimate claimed (429 or 402 before anything is sent), the
 *    rate-limit headers set on whatever answer follows;
 * 3. dispatched to the first channel that answers 2xx; when none does, the reservation is handed back;
 * 4. relayed by the relay's ModelCall; when that throws, the reservation is handed back too, and a
 *    client that left is told apart from an answer that could not be read;
 * 5. the channel freed (whatever happened), the upstream's time observed, the call finished: charged
 *    and its usage event published, exactly once, without the call waiting for the broker's
 *    acknowledgement (Metering.finishLater).
 *
 * A call naming several models (chat's `models` fallbacks) goes on to the next while a model cannot
 * serve it and the client has had nothing yet.
 */
export class CallLifecycle {
  constructor(private readonly deps: CallLifecycleDeps) {}

  /** `models`: the models asked for, in order; one for every call but chat's fallbacks. */
  async run(
    context: CallContext,
    reply: ClientReply,
    models: readonly string[],
    callOn: ModelCallFactory,
  ): Promise<void> {
    for (let i = 0; ; i++) {
      try {
        await this.serve(context, reply, models[i]!, callOn);
        return;
      } catch (error) {
        const last = i >= models.length - 1;
        if (last || reply.streamStarted || reply.aborted || !worthAnotherModel(error)) throw error;
      }
    }
  }

  private async serve(
    context: CallContext,
    reply: ClientReply,
    asked: string,
    callOn: ModelCallFactory,
  ): Promise<void> {
    const { model, quote } = admitModel(this.deps, context.caller, asked);
    const call = callOn(model);
    const metered = await this.deps.metering.open(context, quote, call.estimate(quote));
    if (metered.answerLimit !== undefined) call.limitAnswer?.(metered.answerLimit, true);
    else if (metered.heldAnswerLimit !== undefined) call.limitAnswer?.(metered.heldAnswerLimit, false);
    reply.setHeaders(metered.rateLimitHeaders);
    // Steps 3 and 4 inline rather than in methods of their own: each async method was a promise and a
    // frame more of every call's garbage.
    let dispatched: Dispatched;
    try {
      dispatched = await this.deps.dispatcher.dispatch(context, model, reply, call.buildRequest.bind(call));
    } catch (error) {
      // No channel served it: nothing stays reserved.
      await metered.abandon();
      throw error;
    }
    let answer: RelayedAnswer;
    try {
      answer = await call.relayAnswer({ context, reply, metered, dispatched });
    } catch (error) {
      // An answer that could not be relayed is not charged.
      await metered.abandon();
      if (reply.aborted) throw new ClientGoneError();
      throw error;
    } finally {
      dispatched.release();
    }
    const { route, adapter, sentAt } = dispatched;
    this.deps.metrics.upstream(
      adapter.name,
      route.channel.id,
      quote.model,
      (this.deps.now() - sentAt) / 1000,
    );
    this.deps.metering.finishLater(metered, {
      channel: route.channel,
      provider: adapter.name,
      upstreamModel: route.upstreamModel,
      usage: answer.usage,
      status: answer.status,
      ttftMs: answer.ttftMs,
      isStream: answer.stream,
      operation: call.operation,
      url: dispatched.url,
      sentAt,
      responseId: answer.responseId,
      finishReason: answer.finishReason,
    });
  }
}
