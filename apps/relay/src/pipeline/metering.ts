import type { CatalogChannel, IdentityUser, UsageRecorded } from '@tollgate/contracts';
import type { CorrelationHeaders, Logger } from '@tollgate/platform';
import type { NormalizedUsage } from '../canonical';
import { UNLIMITED, type AdmittedCall, type RateLimiter } from '../limits/rate-limiter';
import {
  actualQuota,
  affordableOutputTokens,
  estimateQuota,
  estimateTokens,
  outputBound,
  type EstimateInput,
  type EstimatePolicy,
  type Quote,
} from '../pricing/price-book';
import { QuotaRefusedError, type QuotaReservations, type Reservation } from '../quota/quota-reservations';
import { usageRecordedEvent, type CallStatus } from '../usage/usage-event';
import { callLogIds, correlationHeadersOf, type CallContext } from './call-context';
import { callCost, type CallCost, type CostTerms } from '../pricing/call-cost';
import type { GenAiOperation, GenAiSpans } from './gen-ai-spans';
import type { RelayMetrics } from './relay-metrics';
import { timeOrderedUuid } from './event-id';

/** Where usage.recorded goes (the event bus, batched), with the headers that tie it to its call. */
export interface UsageSink {
  record(event: UsageRecorded, headers: CorrelationHeaders): Promise<void>;
}

export interface EndedCall {
  channel: CatalogChannel;
  provider: string;
  upstreamModel: string;
  usage: NormalizedUsage;
  status: CallStatus;
  ttftMs: number | null;
  isStream: boolean;
  /** For the call's trace span: what kind of call, where it went, when it went out (performance.now()). */
  operation: GenAiOperation;
  url: string;
  sentAt: number;
  /** The answer's id and why it ended, for GET /v1/generation. */
  responseId?: string;
  finishReason?: string;
}

interface MeteringDeps {
  reservations: QuotaReservations;
  sink: UsageSink;
  metrics: RelayMetrics;
  logger: Logger;
  estimatePolicy: EstimatePolicy;
  now: () => number;
  /** Only while the process exports spans. */
  spans?: GenAiSpans;
  /** Requests and tokens per minute, concurrency (GroupRateLimits and the keys' own). */
  limiter?: RateLimiter;
  /** The currency (and rate) a user is told costs in. */
  costTerms: (user: IdentityUser) => CostTerms;
}

/**
 * A balance below this many byte-bound estimates is "tight": the prompt is counted (when the call
 * offers a count) so that the reservation holds what the call can really cost, and a small balance
 * serves as many calls as it pays for. Above it, the byte bound costs nothing and refuses nobody.
 */
const TIGHT_BALANCE_CALLS = 64;

/**
 * The shortest answer a call that fits its answer to the balance is held to; a balance that pays for
 * less is refused (402) as any other call is: a shorter answer is seldom worth its price.
 */
export const MIN_FITTED_ANSWER_TOKENS = 256;

/**
 * What a call reserves, with what the upstream may generate beyond one answer of the client's limit:
 * the reservation must hold every output token the channel is allowed to bill.
 */
export interface CallEstimateInput extends EstimateInput {
  /**
   * The answer limit a channel is sent when the client names none, where it is above the relay's
   * default (an Anthropic channel's max_tokens, which holds a `reasoning_effort`'s thinking too).
   */
  answerLimitSentByDefault?: number;
}

/**
 * The estimate's input with its output as the upstream may bill it: every answer (`answers`, which
 * outputBound counts), each up to the client's limit or, without one, the larger of the relay's
 * default and what a channel is sent.
 */
function asSent(input: CallEstimateInput, policy: EstimatePolicy): EstimateInput {
  const { answers = 1, answerLimitSentByDefault = 0 } = input;
  if (answers === 1 && answerLimitSentByDefault <= policy.defaultMaxOutputTokens) return input;
  return { ...input, maxOutputTokens: answerLimitReserved(input, policy) };
}

/** One answer's limit as reserved: the client's, else the default or what a channel is sent. */
function answerLimitReserved(input: CallEstimateInput, policy: EstimatePolicy): number {
  return (
    input.maxOutputTokens ?? Math.max(policy.defaultMaxOutputTokens, input.answerLimitSentByDefault ?? 0)
  );
}

/** A call whose estimate is reserved: it ends charged (finish) or free (abandon), exactly once. */
export class MeteredCall {
  constructor(
    private readonly deps: MeteringDeps,
    /** Also the reservation's id: one call, one event, one reservation. */
    readonly eventId: string,
    private readonly context: CallContext,
    readonly quote: Quote,
    readonly estimate: number,
    private readonly reservation: Reservation,
    private readonly admitted: AdmittedCall,
    /** Set when the balance paid for no answer of the default length: the answer's limit, in tokens. */
    readonly answerLimit?: number,
    /**
     * Set when the client named no answer limit and the balance is tight: the limit reserved, which
     * the upstream is sent so that it cannot generate more than the balance was checked for.
     */
    readonly heldAnswerLimit?: number,
  ) {}

  /** The last charge computed, so the answer's cost and the usage event price the same usage once. */
  private charged: { usage: NormalizedUsage; quota: number } | undefined;

  /** What the call is charged for this usage (nothing for a call the upstream broke off). */
  chargeFor(usage: NormalizedUsage, status: CallStatus = 'success'): number {
    if (status === 'upstream_error') return 0;
    const last = this.charged;
    if (
      last !== undefined &&
      last.usage.prompt_tokens === usage.prompt_tokens &&
      last.usage.completion_tokens === usage.completion_tokens &&
      last.usage.cached_tokens === usage.cached_tokens &&
      last.usage.cache_write_tokens === usage.cache_write_tokens &&
      last.usage.cache_write_1h_tokens === usage.cache_write_1h_tokens
    ) {
      return last.quota;
    }
    const quota = actualQuota(this.quote, usage);
    this.charged = {
      usage: {
        prompt_tokens: usage.prompt_tokens,
        completion_tokens: usage.completion_tokens,
        cached_tokens: usage.cached_tokens,
        cache_write_tokens: usage.cache_write_tokens,
        cache_write_1h_tokens: usage.cache_write_1h_tokens,
      },
      quota,
    };
    return quota;
  }

  /** The charge for this usage as the answer tells it: quota, and the amount in the account's currency. */
  costFor(usage: NormalizedUsage): CallCost {
    return callCost(this.chargeFor(usage), this.deps.costTerms(this.context.caller.user));
  }

  /** OpenAI's x-ratelimit-* headers, for every answer to this call (none when nothing limits it). */
  get rateLimitHeaders(): Readonly<Record<string, string>> {
    return this.admitted.headers;
  }

  /**
   * Publishes usage.recorded, then turns the reservation into a hold of the real cost. A call the
   * upstream broke off is not charged; the event still records it for the usage log. Never rejects:
   * the answer is out by now, so what fails here is logged (Metering.finishLater runs it detached).
   */
  async finish(call: EndedCall): Promise<void> {
    const quota = this.chargeFor(call.usage, call.status);
    const event = usageRecordedEvent({
      eventId: this.eventId,
      requestId: this.context.requestId,
      caller: this.context.caller,
      channelId: call.channel.id,
      model: this.quote.model,
      upstreamModel: call.upstreamModel,
      price: this.quote.price,
      usage: call.usage,
      quota,
      latencyMs: this.deps.now() - this.context.startedAt,
      ttftMs: call.ttftMs,
      isStream: call.isStream,
      status: call.status,
      createdAt: Math.floor(Date.now() / 1000),
      responseId: call.responseId,
      finishReason: call.finishReason,
    });
    const { metrics, logger } = this.deps;
    this.deps.spans?.record({
      operation: call.operation,
      provider: call.provider,
      channelId: call.channel.id,
      model: this.quote.model,
      upstreamModel: call.upstreamModel,
      url: call.url,
      usage: call.usage,
      status: call.status,
      isStream: call.isStream,
      sentAt: call.sentAt,
      endedAt: this.deps.now(),
    });
    metrics.request(this.context.protocol, this.quote.model, call.provider, call.status);
    metrics.usage(this.quote.model, call.usage);
    try {
      await this.deps.sink.record(event, correlationHeadersOf(this.context));
    } catch (error) {
      logger.error(
        { ...callLogIds(this.context), eventId: this.eventId, err: (error as Error).name },
        'usage.recorded could not be published',
      );
    }
    // Settled even when the event was lost: the hold only errs on the side of the balance.
    let settled: boolean;
    try {
      settled =
        this.admitted === UNLIMITED
          ? await this.reservation.settle(quota)
          : (
              await Promise.all([
                this.reservation.settle(quota),
                this.admitted.finish(call.usage.prompt_tokens + call.usage.completion_tokens),
              ])
            )[0];
    } catch (error) {
      // The estimate stays reserved until its TTL (RELAY_RESERVATION_TTL_MS): the balance errs on its side.
      logger.error(
        { ...callLogIds(this.context), eventId: this.eventId, err: (error as Error).name },
        'the call ended but its reservation could not be settled',
      );
      return;
    }
    if (!settled) {
      logger.warn(
        { ...callLogIds(this.context), eventId: this.eventId },
        'the reservation had expired before the call ended',
      );
    }
  }

  /** Nothing was served: the estimate is freed and nothing is charged. */
  async abandon(): Promise<void> {
    if (this.admitted === UNLIMITED) await this.reservation.release();
    else await Promise.all([this.reservation.release(), this.admitted.abandon()]);
  }
}

/** Prices and reserves a call before it goes upstream. */
export class Metering {
  /** Calls whose finish (finishLater) has not settled yet, and what `finished` waits on while there are some. */
  private finishing = 0;
  private allFinished: (() => void) | undefined;

  constructor(private readonly deps: MeteringDeps) {}

  /**
   * Finishes an answered call without holding its caller: the usage event's acknowledgement takes a
   * produce round trip (up to the publisher's linger), and a handler awaiting it kept the whole call
   * (request, reply, body, upstream answer) alive across young-generation GCs at low rates
   * (bench/ANALYSIS.md, h120); only the MeteredCall and its event wait now. `finished` (shutdown)
   * waits for these.
   */
  finishLater(metered: MeteredCall, call: EndedCall): void {
    this.finishing++;
    metered.finish(call).then(this.finishedOne, (error: unknown) => {
      this.deps.logger.error({ err: (error as Error).name }, 'a call could not be finished');
      this.finishedOne();
    });
  }

  private readonly finishedOne = (): void => {
    if (--this.finishing > 0) return;
    const allFinished = this.allFinished;
    this.allFinished = undefined;
    allFinished?.();
  };

  /** Resolves once no call's finish is running (those started meanwhile included). */
  finished(): Promise<void> {
    if (this.finishing === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const before = this.allFinished;
      this.allFinished = () => {
        before?.();
        resolve();
      };
    });
  }

  /** What a refused call could have had, as OpenRouter says it: the output tokens the balance affords. */
  private affordability(quote: Quote, input: EstimateInput, available: number): string {
    const requested = outputBound(quote, input, this.deps.estimatePolicy);
    const affordable = affordableOutputTokens(quote, input.promptTokens, available);
    // Holds outlive their calls until billing's balance includes the charge (RELAY_QUOTA_HOLD_MS).
    if (affordable >= requested)
      return 'Calls in flight or just finished hold the rest of the balance until they are billed: retry in a minute';
    return `You requested up to ${requested} output tokens, but can only afford ${affordable}`;
  }

  /**
   * Throws RateLimitedError (429) when a rate limit is reached, QuotaRefusedError (402) when the
   * balance or the key's quota cannot cover the estimate; nothing stays claimed then.
   */
  async open(context: CallContext, quote: Quote, call: CallEstimateInput): Promise<MeteredCall> {
    const { estimatePolicy, limiter, reservations } = this.deps;
    const input = asSent(call, estimatePolicy);
    let estimated = input;
    let estimate = estimateQuota(quote, input, estimatePolicy);
    const available = reservations.available(context.caller);
    const tight = available < estimate * TIGHT_BALANCE_CALLS;
    if (input.countPromptTokens !== undefined && tight) {
      estimated = { ...input, promptTokens: Math.min(input.promptTokens, input.countPromptTokens()) };
      estimate = estimateQuota(quote, estimated, estimatePolicy);
    }
    // Time-ordered: billing indexes usage rows and ledger entries by it, and random keys spread every
    // insert over the whole index, which costs more as it grows (bench/ANALYSIS.md, H52).
    const eventId = timeOrderedUuid();
    const admitting =
      limiter === undefined
        ? UNLIMITED
        : limiter.admit(context.caller, eventId, estimateTokens(quote, estimated, estimatePolicy));
    // A call nothing limits is admitted at once: no turn of the event loop, no promise.
    const admitted = admitting instanceof Promise ? await admitting : admitting;
    let refusal: unknown;
    try {
      const reserving = reservations.reserve(context.caller, eventId, estimate);
      const reservation = reserving instanceof Promise ? await reserving : reserving;
      // An upstream sent no limit may answer past the default: above a tight balance's reach, that
      // is the call's own overrun (docs/relay.md); within it, the upstream is held to what is reserved.
      const held =
        tight && call.maxOutputTokens === undefined ? answerLimitReserved(call, estimatePolicy) : undefined;
      return new MeteredCall(
        this.deps,
        eventId,
        context,
        quote,
        estimate,
        reservation,
        admitted,
        undefined,
        held,
      );
    } catch (error) {
      refusal = error;
    }
    const answerLimit =
      refusal instanceof QuotaRefusedError
        ? this.fittedAnswer(quote, call, estimated, available, refusal)
        : 0;
    if (answerLimit > 0) {
      try {
        const fitted = { ...estimated, maxOutputTokens: answerLimit };
        return await this.reserveFitted(context, quote, fitted, eventId, admitted, answerLimit);
      } catch (error) {
        refusal = error;
      }
    }
    await admitted.abandon();
    if (!(refusal instanceof QuotaRefusedError)) throw refusal;
    this.deps.metrics.refusal(refusal.reason);
    throw new QuotaRefusedError(refusal.reason, this.affordability(quote, estimated, available));
  }

  /**
   * The answer length the balance pays for, for a call that may be answered shorter than the default
   * (`fitsAnswerToBalance`) and was refused for the user's balance; 0 when it may not be, or when the
   * balance pays for less than MIN_FITTED_ANSWER_TOKENS (after the thinking of a call that reasons),
   * or when calls in flight hold what is missing.
   */
  private fittedAnswer(
    quote: Quote,
    call: CallEstimateInput,
    input: EstimateInput,
    available: number,
    refusal: QuotaRefusedError,
  ): number {
    if (call.fitsAnswerToBalance !== true || call.maxOutputTokens !== undefined) return 0;
    if (refusal.reason !== 'user_balance') return 0;
    const affordable = affordableOutputTokens(quote, input.promptTokens, available);
    const requested = outputBound(quote, input, this.deps.estimatePolicy);
    if (affordable >= requested) return 0;
    // Each answer gets its share; the limit sent holds the thinking too (it is fitted to this).
    const perAnswer = Math.floor(affordable / (call.answers ?? 1));
    const shortest = MIN_FITTED_ANSWER_TOKENS + (call.thinkingTokens ?? 0);
    return perAnswer >= shortest ? perAnswer : 0;
  }

  /** `input` holds every answer (its `answers`) at the fitted limit; `answerLimit` is one answer's. */
  private async reserveFitted(
    context: CallContext,
    quote: Quote,
    input: EstimateInput,
    eventId: string,
    admitted: AdmittedCall,
    answerLimit: number,
  ): Promise<MeteredCall> {
    const estimate = estimateQuota(quote, input, this.deps.estimatePolicy);
    const reservation = await this.deps.reservations.reserve(context.caller, eventId, estimate);
    return new MeteredCall(this.deps, eventId, context, quote, estimate, reservation, admitted, answerLimit);
  }
}
