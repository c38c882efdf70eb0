import { QUOTA_PER_USD } from '../events/money';
import { toScaledInteger } from './decimal';

/**
 * Token counts as the OpenAI usage block reports them. `cached_tokens` is the part of
 * `prompt_tokens` read from the provider's prompt cache, i.e. it is INCLUDED in `prompt_tokens`
 * (OpenAI's `prompt_tokens_details.cached_tokens`). Adapters for providers that report cache reads
 * separately (Anthropic's `cache_read_input_tokens`) add them into `prompt_tokens` first.
 */
export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
  /**
   * The part of `prompt_tokens` written to the prompt cache (Anthropic's `cache_creation_input_tokens`),
   * apart from the cached tokens read; absent or 0 on calls that wrote none.
   */
  cache_write_tokens?: number;
  /** The part of `cache_write_tokens` written for an hour (Anthropic's `ephemeral_1h_input_tokens`); the rest were written for 5 minutes. */
  cache_write_1h_tokens?: number;
}

/** Prices in USD per 1M tokens and the caller's group ratio, all as decimal strings (the shape `usage.recorded` carries). */
export interface PriceSnapshot {
  input: string;
  output: string;
  cached_input: string;
  group_ratio: string;
  /** Tokens written to the prompt cache (5 minutes); when absent they cost the input price. */
  cache_write?: string;
  /** Tokens written to the prompt cache for an hour; when absent they cost `cache_write`. */
  cache_write_1h?: string;
}

/** Fractional digits kept for prices and ratios: the most `decimalSchema` allows. */
export const PRICE_DECIMAL_DIGITS = 12;
const SCALE = 10n ** BigInt(PRICE_DECIMAL_DIGITS);
const TOKENS_PER_PRICE_UNIT = 1_000_000n;
const DENOMINATOR = TOKENS_PER_PRICE_UNIT * SCALE * SCALE;
const QUOTA_PER_USD_BIG = BigInt(QUOTA_PER_USD);
const MAX_SAFE_QUOTA = BigInt(Number.MAX_SAFE_INTEGER);

const tokenCount = (name: keyof TokenUsage, value: number): bigint => {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
  }
  return BigInt(value);
};

/** A `PriceSnapshot` with each price and the ratio scaled by 10^PRICE_DECIMAL_DIGITS: what the charge computes on. */
export interface ScaledPrice {
  readonly input: bigint;
  readonly output: bigint;
  readonly cached_input: bigint;
  readonly group_ratio: bigint;
  /** The write prices as charged: an absent one already replaced by the price it falls back to. */
  readonly cache_write: bigint;
  readonly cache_write_1h: bigint;
}

/**
 * The snapshot's decimals as the charge's integers. Relay scales a price once when it changes and
 * charges every call on the result; throws a RangeError on a malformed price.
 */
export function scalePriceSnapshot(price: PriceSnapshot): ScaledPrice {
  const input = toScaledInteger(price.input, PRICE_DECIMAL_DIGITS);
  const cacheWrite =
    price.cache_write === undefined ? input : toScaledInteger(price.cache_write, PRICE_DECIMAL_DIGITS);
  return {
    input,
    output: toScaledInteger(price.output, PRICE_DECIMAL_DIGITS),
    cached_input: toScaledInteger(price.cached_input, PRICE_DECIMAL_DIGITS),
    group_ratio: toScaledInteger(price.group_ratio, PRICE_DECIMAL_DIGITS),
    cache_write: cacheWrite,
    cache_write_1h:
      price.cache_write_1h === undefined
        ? cacheWrite
        : toScaledInteger(price.cache_write_1h, PRICE_DECIMAL_DIGITS),
  };
}

/**
 * THE charge, in quota units, used by relay (reservation and settlement) and billing alike:
 *
 *   ceil(((prompt − cached − writes) × input + cached × cached_input
 *         + (writes − writes_1h) × cache_write + writes_1h × cache_write_1h
 *         + completion × output) / 1e6 × 500 000 × group_ratio)
 *
 * Each prompt token is billed once: a cache read at the cached-input price, a cache write at the
 * write price of its lifetime (Anthropic: 1.25× input for 5 minutes, 2× for an hour), the rest at the
 * input price. Without writes, or with write prices equal to the input price, this is the charge as it
 * was before writes were priced: `(prompt − cached) × input + cached × cached_input + completion × output`.
 * Computed exactly on integers; any positive cost, however small, is at least 1 unit.
 * Throws a RangeError on malformed usage (cached + writes > prompt, writes_1h > writes, negative or
 * fractional counts) or prices.
 */
export function chargeQuota(usage: TokenUsage, price: PriceSnapshot): number {
  return chargeQuotaScaled(usage, scalePriceSnapshot(price));
}

/** `chargeQuota` on prices already scaled (`scalePriceSnapshot`): the formula itself. */
export function chargeQuotaScaled(usage: TokenUsage, price: ScaledPrice): number {
  const prompt = tokenCount('prompt_tokens', usage.prompt_tokens);
  const completion = tokenCount('completion_tokens', usage.completion_tokens);
  const cached = tokenCount('cached_tokens', usage.cached_tokens);
  if (cached > prompt) {
    throw new RangeError(
      `cached_tokens (${usage.cached_tokens}) are part of prompt_tokens (${usage.prompt_tokens}) and cannot exceed them`,
    );
  }
  let usdPerMillionTokens =
    (prompt - cached) * price.input + completion * price.output + cached * price.cached_input;
  // Most calls write no cache: their charge takes no further BigInt arithmetic.
  if (usage.cache_write_tokens !== undefined || usage.cache_write_1h_tokens !== undefined) {
    usdPerMillionTokens += cacheWriteSurcharge(usage, prompt - cached, price);
  }
  const numerator = usdPerMillionTokens * QUOTA_PER_USD_BIG * price.group_ratio;
  const quota = (numerator + DENOMINATOR - 1n) / DENOMINATOR;
  if (quota > MAX_SAFE_QUOTA) {
    throw new RangeError(`the charge (${quota} quota units) exceeds the largest safe integer`);
  }
  return Number(quota);
}

/**
 * What the cache writes cost beyond the input price the formula above already billed them at:
 * writes × (write price − input), per lifetime. Negative when a write price is below the input price.
 */
function cacheWriteSurcharge(usage: TokenUsage, uncachedPrompt: bigint, price: ScaledPrice): bigint {
  const writes = tokenCount('cache_write_tokens', usage.cache_write_tokens ?? 0);
  const writesFor1h = tokenCount('cache_write_1h_tokens', usage.cache_write_1h_tokens ?? 0);
  if (writes > uncachedPrompt) {
    throw new RangeError(
      `cache_write_tokens (${usage.cache_write_tokens}) and cached_tokens (${usage.cached_tokens}) are parts of prompt_tokens (${usage.prompt_tokens}) and cannot exceed them`,
    );
  }
  if (writesFor1h > writes) {
    throw new RangeError(
      `cache_write_1h_tokens (${usage.cache_write_1h_tokens}) are part of cache_write_tokens (${usage.cache_write_tokens}) and cannot exceed them`,
    );
  }
  return (
    (writes - writesFor1h) * (price.cache_write - price.input) +
    writesFor1h * (price.cache_write_1h - price.input)
  );
}
