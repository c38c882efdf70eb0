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
}

/** Prices in USD per 1M tokens and the caller's group ratio, all as decimal strings (the shape `usage.recorded` carries). */
export interface PriceSnapshot {
  input: string;
  output: string;
  cached_input: string;
  group_ratio: string;
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
}

/**
 * The snapshot's decimals as the charge's integers. Relay scales a price once when it changes and
 * charges every call on the result; throws a RangeError on a malformed price.
 */
export function scalePriceSnapshot(price: PriceSnapshot): ScaledPrice {
  return {
    input: toScaledInteger(price.input, PRICE_DECIMAL_DIGITS),
    output: toScaledInteger(price.output, PRICE_DECIMAL_DIGITS),
    cached_input: toScaledInteger(price.cached_input, PRICE_DECIMAL_DIGITS),
    group_ratio: toScaledInteger(price.group_ratio, PRICE_DECIMAL_DIGITS),
  };
}

/**
 * THE charge, in quota units, used by relay (reservation and settlement) and billing alike:
 *
 *   ceil(((prompt − cached) × input + completion × output + cached × cached_input) / 1e6 × 500 000 × group_ratio)
 *
 * Cached tokens are billed once, at the cached-input price, and the rest of the prompt at the input
 * price. Computed exactly on integers; any positive cost, however small, is at least 1 unit.
 * Throws a RangeError on malformed usage (cached > prompt, negative or fractional counts) or prices.
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
  const usdPerMillionTokens =
    (prompt - cached) * price.input + completion * price.output + cached * price.cached_input;
  const numerator = usdPerMillionTokens * QUOTA_PER_USD_BIG * price.group_ratio;
  const quota = (numerator + DENOMINATOR - 1n) / DENOMINATOR;
  if (quota > MAX_SAFE_QUOTA) {
    throw new RangeError(`the charge (${quota} quota units) exceeds the largest safe integer`);
  }
  return Number(quota);
}
