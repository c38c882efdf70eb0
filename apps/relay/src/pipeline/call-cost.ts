import { QUOTA_PER_USD } from '@tollgate/contracts';

/** What a call was charged: quota units and the same in US dollars, as exact decimal text. */
export interface CallCost {
  quota: number;
  /** `quota / QUOTA_PER_USD`, exact (no float arithmetic), e.g. `0.000042`. */
  usd: string;
}

export const COST_HEADER = 'x-tollgate-cost';
export const COST_QUOTA_HEADER = 'x-tollgate-cost-quota';

const USD_DECIMALS = 6;
const MICRO_USD_PER_QUOTA = 10 ** USD_DECIMALS / QUOTA_PER_USD;

export function callCost(quota: number): CallCost {
  const micro = quota * MICRO_USD_PER_QUOTA;
  const whole = Math.floor(micro / 10 ** USD_DECIMALS);
  const fraction = String(micro % 10 ** USD_DECIMALS)
    .padStart(USD_DECIMALS, '0')
    .replace(/0+$/, '');
  return { quota, usd: fraction === '' ? String(whole) : `${whole}.${fraction}` };
}

/** `x-tollgate-cost` (dollars) and `x-tollgate-cost-quota` on a non-streaming answer. */
export function costHeaders(cost: CallCost): Record<string, string> {
  return { [COST_HEADER]: cost.usd, [COST_QUOTA_HEADER]: String(cost.quota) };
}

/** The fields added to an OpenAI-shaped `usage` object, as OpenRouter returns `usage.cost`. */
const costFields = (cost: CallCost): string => `"cost":${cost.usd},"cost_quota":${cost.quota}`;

/** The last `"usage": {` of a JSON text: the answer's own (a string's quotes would be escaped). */
const USAGE_OPENING = /"usage"\s*:\s*\{/g;

/**
 * The JSON text with `cost` and `cost_quota` added to its top-level `usage` object, without parsing
 * and serialising the answer again; one without a usage object gains `usage: {cost, cost_quota}`.
 * Returns undefined when the text is not a JSON object.
 */
export function withUsageCost(text: string, cost: CallCost): string | undefined {
  let opening: RegExpExecArray | undefined;
  for (const match of text.matchAll(USAGE_OPENING)) opening = match as RegExpExecArray;
  if (opening !== undefined) {
    const at = opening.index + opening[0].length;
    const empty = /^\s*\}/.test(text.slice(at));
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
  return { ...answer, usage: { ...base, cost: Number(cost.usd), cost_quota: cost.quota } };
}
