import {
  PRICE_DECIMAL_DIGITS,
  scalePriceSnapshot,
  toScaledInteger,
  type DefaultCurrency,
  type PriceSnapshot,
} from '@tollgate/contracts';
import type { CostTerms } from '../pricing/call-cost';

/**
 * What one token of a model costs a caller, in the caller's currency, as exact decimal text: the
 * `pricing` of OpenRouter's model list (which is in USD; here `currency` says which).
 */
export interface TokenPrices {
  prompt: string;
  completion: string;
  /** A prompt token read from the provider's prompt cache. */
  input_cache_read: string;
  /** A prompt token written to the cache (5 minutes); only where the catalogue prices writes apart from input. */
  input_cache_write?: string;
  currency: DefaultCurrency;
}

const TOKENS_PER_PRICE_UNIT = 6;
/** A scaled price × a scaled ratio is USD per 1M tokens × 10^24: per token, 10^30. */
const USD_DECIMALS = TOKENS_PER_PRICE_UNIT + 2 * PRICE_DECIMAL_DIGITS;
/** Every fractional digit of the published rate, read as callCost reads it. */
const RATE_DECIMALS = 12;

/** `value` / 10^decimals as decimal text without trailing zeros: (15n, 8) → `0.00000015`. */
function exactDecimal(value: bigint, decimals: number): string {
  const digits = value.toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return fraction === '' ? whole : `${whole}.${fraction}`;
}

const termsKey = (terms: CostTerms): string => (terms.currency === 'USD' ? 'USD' : `RUB:${terms.rubPerUsd}`);

/** Each price snapshot's token prices per currency and rate, made on the first listing that shows them. */
const rendered = new WeakMap<PriceSnapshot, Map<string, TokenPrices>>();

/**
 * The price of a token to a caller whose call is charged at `price` (a quote's snapshot: the model's
 * list prices and the caller's group ratio) and told in `terms`. The charge's own integers
 * (`scalePriceSnapshot`, as `chargeQuota` computes on them), divided by a million tokens with nothing
 * rounded: `input × group_ratio / 1e6` dollars, times the published rate for a ruble account. A call
 * costs its tokens at these prices, rounded up to a whole quota unit ($0.000002) as every charge is.
 */
export function tokenPrices(price: PriceSnapshot, terms: CostTerms): TokenPrices {
  let byTerms = rendered.get(price);
  if (byTerms === undefined) {
    byTerms = new Map();
    rendered.set(price, byTerms);
  }
  const key = termsKey(terms);
  let prices = byTerms.get(key);
  if (prices === undefined) {
    prices = render(price, terms);
    byTerms.set(key, prices);
  }
  return prices;
}

function render(price: PriceSnapshot, terms: CostTerms): TokenPrices {
  const scaled = scalePriceSnapshot(price);
  // A dollar account's prices are the dollars; a ruble account's, the dollars times the rate (× 10^12).
  const [rate, decimals] =
    terms.currency === 'USD'
      ? [1n, USD_DECIMALS]
      : [toScaledInteger(terms.rubPerUsd, RATE_DECIMALS), USD_DECIMALS + RATE_DECIMALS];
  const perToken = (perMillion: bigint): string =>
    exactDecimal(perMillion * scaled.group_ratio * rate, decimals);
  const prices: TokenPrices = {
    prompt: perToken(scaled.input),
    completion: perToken(scaled.output),
    input_cache_read: perToken(scaled.cached_input),
    currency: terms.currency,
  };
  if (price.cache_write !== undefined) prices.input_cache_write = perToken(scaled.cache_write);
  return Object.freeze(prices);
}
