import { QUOTA_PER_USD, toScaledInteger, type DefaultCurrency } from '@tollgate/contracts';

/**
 * What a call was charged: quota units, the same in US dollars, and the amount told to the account
 * in its own currency, all as exact decimal text.
 */
export interface CallCost {
  quota: number;
  /** `quota / QUOTA_PER_USD`, exact (no float arithmetic), e.g. `0.000042`. */
  usd: string;
  /** In `currency`: the dollars, or rubles at the published rate rounded half up to 6 decimals. */
  amount: string;
  currency: DefaultCurrency;
}

/**
 * How an account is told its costs. A ruble account is told rubles only at a known rate; without
 * one it is told dollars, labelled as such, never a guessed number.
 */
export type CostTerms = { currency: 'USD' } | { currency: 'RUB'; rubPerUsd: string };

export const IN_DOLLARS: CostTerms = { currency: 'USD' };

/** The terms for an account in `currency` while billing's published rate is `rubPerUsd` (if any). */
export function costTerms(currency: DefaultCurrency, rubPerUsd: string | undefined): CostTerms {
  return currency === 'RUB' && rubPerUsd !== undefined ? { currency, rubPerUsd } : IN_DOLLARS;
}

export const COST_HEADER = 'x-tollgate-cost';
export const COST_CURRENCY_HEADER = 'x-tollgate-cost-currency';
export const COST_QUOTA_HEADER = 'x-tollgate-cost-quota';

const DECIMALS = 6;
const MICROS = 10n ** BigInt(DECIMALS);
const QUOTA_PER_USD_BIG = BigInt(QUOTA_PER_USD);

/** An amount held in millionths as decimal text without trailing zeros: 42n → `0.000042`. */
function fromMicros(micros: bigint): string {
  const whole = micros / MICROS;
  const fraction = (micros % MICROS).toString().padStart(DECIMALS, '0').replace(/0+$/, '');
  return fraction === '' ? whole.toString() : `${whole}.${fraction}`;
}

/** Millionths of a dollar in `quota`: exact, since a quota unit is 2 millionths of a dollar. */
const microUsd = (quota: bigint): bigint => (quota * MICROS) / QUOTA_PER_USD_BIG;

/** The rate's scale: every fractional digit billing.price may carry. */
const RATE_DECIMALS = 12;
/** From quota × rate (scaled by 10^RATE_DECIMALS) to millionths: ÷ QUOTA_PER_USD ÷ 10^(12 − 6). */
const RATE_TO_MICROS = QUOTA_PER_USD_BIG * 10n ** BigInt(RATE_DECIMALS - DECIMALS);

/** Millionths of a ruble in `quota` at `rubPerUsd`, rounded half up. */
function microRub(quota: bigint, rubPerUsd: string): bigint {
  const rate = toScaledInteger(rubPerUsd, RATE_DECIMALS);
  return (quota * rate + RATE_TO_MICROS / 2n) / RATE_TO_MICROS;
}

export function callCost(quota: number, terms: CostTerms = IN_DOLLARS): CallCost {
  const units = BigInt(quota);
  const usd = fromMicros(microUsd(units));
  if (terms.currency === 'USD') return { quota, usd, amount: usd, currency: 'USD' };
  return { quota, usd, amount: fromMicros(microRub(units, terms.rubPerUsd)), currency: 'RUB' };
}

/** `x-tollgate-cost` (in the account's currency), its currency and `x-tollgate-cost-quota`. */
export function costHeaders(cost: CallCost): Record<string, string> {
  return {
    [COST_HEADER]: cost.amount,
    [COST_CURRENCY_HEADER]: cost.currency,
    [COST_QUOTA_HEADER]: String(cost.quota),
  };
}

/** The fields added to an OpenAI-shaped `usage` object, as OpenRouter returns `usage.cost`. */
const costFields = (cost: CallCost): string =>
  `"cost":${cost.amount},"cost_currency":"${cost.currency}","cost_quota":${cost.quota}`;

const USAGE_KEY = '"usage"';
/** What follows the key when it opens an object, matched where the key ends. */
const OPENS_OBJECT = /\s*:\s*\{/y;
const CLOSES_OBJECT = /\s*\}/y;

/**
 * Where the last `"usage": {` of a JSON text opens its object: the answer's own usage (inside a
 * string the quotes would be escaped). Searched from the end, not scanned from the start: the answer
 * may be long and its usage comes last.
 */
function lastUsageObject(text: string): number | undefined {
  for (let key = text.lastIndexOf(USAGE_KEY); key >= 0; key = text.lastIndexOf(USAGE_KEY, key - 1)) {
    OPENS_OBJECT.lastIndex = key + USAGE_KEY.length;
    if (OPENS_OBJECT.test(text)) return OPENS_OBJECT.lastIndex;
    if (key === 0) break;
  }
  return undefined;
}

/**
 * The JSON text with `cost`, `cost_currency` and `cost_quota` added to its top-level `usage` object, without parsing
 * and serialising the answer again; one without a usage object gains `usage: {cost, …}`.
 * Returns undefined when the text is not a JSON object.
 */
export function withUsageCost(text: string, cost: CallCost): string | undefined {
  const at = lastUsageObject(text);
  if (at !== undefined) {
    CLOSES_OBJECT.lastIndex = at;
    const empty = CLOSES_OBJECT.test(text);
    return `${text.slice(0, at)}${costFields(cost)}${empty ? '' : ','}${text.slice(at)}`;
  }
  const end = text.lastIndexOf('}');
  if (!text.trimStart().startsWith('{') || end < 0) return undefined;
  const empty = /^\s*\{\s*$/.test(text.slice(0, end));
  return `${text.slice(0, end)}${empty ? '' : ','}"usage":{${costFields(cost)}}${text.slice(end)}`;
}

/** The same for an answer held as an object (one rendered for the client, not passed through). */
export function addUsageCost(answer: object, cost: CallCost): object {
  const usage = (answer as { usage?: unknown }).usage;
  const base = typeof usage === 'object' && usage !== null ? usage : {};
  return {
    ...answer,
    // A JSON number, as OpenRouter's; at most 6 decimals and 15 digits, so the float prints it exactly.
    usage: { ...base, cost: Number(cost.amount), cost_currency: cost.currency, cost_quota: cost.quota },
  };
}
