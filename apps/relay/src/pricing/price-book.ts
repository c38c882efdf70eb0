import {
  chargeQuotaScaled,
  ErrorCode,
  priceKey,
  scalePriceSnapshot,
  type BillingPrice,
  type PriceSnapshot,
  type ScaledPrice,
  type TokenUsage,
} from '@tollgate/contracts';
import { RelayError } from '../errors/relay-error';

export interface PriceLookup {
  get(key: string): BillingPrice | undefined;
}

/** A model's prices for one group, with what the estimate needs to know about the model. */
export interface Quote {
  model: string;
  price: PriceSnapshot;
  /** 0 when the catalogue does not say. */
  contextWindow: number;
}

/** A group without a ratio of its own pays list prices. */
const LIST_PRICE_RATIO = '1';
/** The ratio key of a group without one. */
const LIST_PRICE = Object.freeze({});

type ModelPrice = Extract<BillingPrice, { kind: 'model' }>;
type GroupRatio = Extract<BillingPrice, { kind: 'group_ratio' }>;

/**
 * Each snapshot's scaled form, made on its first charge. Snapshots are frozen (the book's) or built
 * once by their caller, never changed afterwards, so the scaled form stays theirs.
 */
const scaledPrices = new WeakMap<PriceSnapshot, ScaledPrice>();

function scaled(price: PriceSnapshot): ScaledPrice {
  let found = scaledPrices.get(price);
  if (found === undefined) {
    found = scalePriceSnapshot(price);
    scaledPrices.set(price, found);
  }
  return found;
}

/** Prices from the billing.price read model: `model:<name>` entries, `group:<name>` ratios, the rate. */
export class PriceBook {
  /**
   * One quote per model entry and ratio entry, parsed and scaled once: the read model replaces an
   * entry's object when billing publishes a new price, so a changed price is a new key and the old
   * quote goes with its entry.
   */
  private readonly quotes = new WeakMap<ModelPrice, WeakMap<GroupRatio | typeof LIST_PRICE, Quote>>();

  constructor(private readonly prices: PriceLookup) {}

  /** Throws ModelNotFound (404) for a model the catalogue does not price: it cannot be billed. */
  quote(model: string, group: string): Quote {
    const entry = this.prices.get(priceKey.model(model));
    if (entry === undefined || entry.kind !== 'model') {
      throw new RelayError(ErrorCode.ModelNotFound, `The model ${model} does not exist or has no price`);
    }
    const found = this.prices.get(priceKey.group(group));
    const ratio: GroupRatio | typeof LIST_PRICE = found?.kind === 'group_ratio' ? found : LIST_PRICE;
    let byRatio = this.quotes.get(entry);
    if (byRatio === undefined) {
      byRatio = new WeakMap();
      this.quotes.set(entry, byRatio);
    }
    let quote = byRatio.get(ratio);
    if (quote === undefined) {
      quote = quoteOf(entry, found?.kind === 'group_ratio' ? found.ratio : LIST_PRICE_RATIO);
      byRatio.set(ratio, quote);
    }
    return quote;
  }

  /** Rubles per dollar as billing last published it (markup included); undefined until it has. */
  rubPerUsd(): string | undefined {
    const entry = this.prices.get(priceKey.rate('USD_RUB'));
    return entry?.kind === 'exchange_rate' ? entry.rate : undefined;
  }

  /** The provider the catalogue prices the model under; undefined for a model it does not price. */
  providerOf(model: string): string | undefined {
    const entry = this.prices.get(priceKey.model(model));
    return entry?.kind === 'model' ? entry.provider : undefined;
  }

  /** Whether the catalogue prices the model (for listing models). */
  has(model: string): boolean {
    return this.prices.get(priceKey.model(model))?.kind === 'model';
  }
}

function quoteOf(entry: ModelPrice, groupRatio: string): Quote {
  const snapshot: PriceSnapshot = {
    input: entry.input_price,
    output: entry.output_price,
    cached_input: entry.cached_input_price,
    group_ratio: groupRatio,
  };
  // Only where the catalogue prices writes: a snapshot without them charges and reads as before.
  if (entry.cache_write_price !== undefined) snapshot.cache_write = entry.cache_write_price;
  if (entry.cache_write_1h_price !== undefined) snapshot.cache_write_1h = entry.cache_write_1h_price;
  const price = Object.freeze(snapshot);
  return Object.freeze({ model: entry.model, contextWindow: entry.context_window, price });
}

export interface EstimateInput {
  /** At least the prompt's tokens (an upper bound, not a count). */
  promptTokens: number;
  /** What the client allows one answer to be; undefined when it set no limit. */
  maxOutputTokens: number | undefined;
  /** Answers generated for the call (`n`), each up to the limit and to the context window; 1 when absent. */
  answers?: number;
  /**
   * A closer estimate of the prompt (its tokens counted, with a margin), asked for only when the
   * account's balance is tight; absent where counting would cost more than it saves.
   */
  countPromptTokens?: () => number;
  /**
   * The call names no answer length and may be answered shorter than the default when the balance
   * cannot pay for that (the web chat's calls): the relay then sets the limit itself (metering.ts).
   */
  fitsAnswerToBalance?: boolean;
  /**
   * For such a call that asks for reasoning: the thinking its answer limit must also hold, so that
   * the limit is not fitted below it and an answer (metering.ts).
   */
  thinkingTokens?: number;
}

export interface EstimatePolicy {
  /** Output tokens assumed when the client sets no limit. */
  defaultMaxOutputTokens: number;
}

/**
 * A bound on one conversation's prompt need not exceed the model's context window: a longer prompt
 * is refused by the upstream, and a refused call is not charged.
 */
export function promptWithinContext(quote: Quote, promptTokens: number): number {
  return quote.contextWindow > 0 ? Math.min(promptTokens, quote.contextWindow) : promptTokens;
}

/**
 * The reservation for a call: the charge as if the whole allowed answer were generated. A client
 * limit above the model's context window is cut to the window, not to the window minus the prompt:
 * the prompt here is an upper bound, and the real prompt may be shorter and leave room for more.
 */
export function estimateQuota(quote: Quote, input: EstimateInput, policy: EstimatePolicy): number {
  return chargeQuotaScaled(
    {
      prompt_tokens: input.promptTokens,
      completion_tokens: outputBound(quote, input, policy),
      cached_tokens: 0,
    },
    scaled(quote.price),
  );
}

/** The tokens a call may use at most, as reserved against a tokens-per-minute limit. */
export function estimateTokens(quote: Quote, input: EstimateInput, policy: EstimatePolicy): number {
  return input.promptTokens + outputBound(quote, input, policy);
}

/** Every answer's output at most: each answer is held to the limit and to the context window. */
export function outputBound(quote: Quote, input: EstimateInput, policy: EstimatePolicy): number {
  let perAnswer = input.maxOutputTokens ?? policy.defaultMaxOutputTokens;
  if (quote.contextWindow > 0) perAnswer = Math.min(perAnswer, quote.contextWindow);
  return Math.max(0, Math.floor(perAnswer)) * (input.answers ?? 1);
}

/**
 * The most output tokens `left` quota pays for after this prompt (0 when not even the prompt), found
 * with the billing formula itself so that rounding is the same.
 */
export function affordableOutputTokens(quote: Quote, promptTokens: number, left: number): number {
  const price = scaled(quote.price);
  const cost = (output: number) =>
    chargeQuotaScaled({ prompt_tokens: promptTokens, completion_tokens: output, cached_tokens: 0 }, price);
  if (left <= 0 || cost(0) > left) return 0;
  let low = 0;
  let high = 1;
  while (cost(high) <= left && high < 1e12) high *= 2;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (cost(middle) <= left) low = middle;
    else high = middle;
  }
  return low;
}

/**
 * The real charge. Cached tokens above the prompt, and cache writes above what the reads leave of
 * it (a confused upstream), are capped rather than refused.
 */
export function actualQuota(quote: Quote, usage: TokenUsage): number {
  const cached = Math.min(usage.cached_tokens, usage.prompt_tokens);
  if (usage.cache_write_tokens === undefined)
    return chargeQuotaScaled({ ...usage, cached_tokens: cached }, scaled(quote.price));
  const writes = Math.min(usage.cache_write_tokens, usage.prompt_tokens - cached);
  return chargeQuotaScaled(
    {
      prompt_tokens: usage.prompt_tokens,
      completion_tokens: usage.completion_tokens,
      cached_tokens: cached,
      cache_write_tokens: writes,
      cache_write_1h_tokens: Math.min(usage.cache_write_1h_tokens ?? 0, writes),
    },
    scaled(quote.price),
  );
}
