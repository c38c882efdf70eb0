import type { PassThroughOperation } from '../providers';
import { normalizeOpenAiUsage, type JsonObject, type NormalizedUsage } from '../canonical';
import type { TokenCounter } from './token-counter';

/** Operations whose answers are not generated text. */
const NO_OUTPUT_TOKENS: ReadonlySet<PassThroughOperation> = new Set([
  'embeddings',
  'audio.speech',
  'images.generations',
  'moderations',
  'rerank',
]);

/** The answer length a pass-through request allows, when its operation generates text at all. */
export function maxOutputTokensOf(operation: PassThroughOperation, body: JsonObject): number | undefined {
  if (NO_OUTPUT_TOKENS.has(operation)) return 0;
  const limit = body['max_tokens'] ?? body['max_output_tokens'];
  return typeof limit === 'number' && Number.isInteger(limit) && limit > 0 ? limit : undefined;
}

const countOf = (value: unknown): number =>
  typeof value === 'number' && Number.isInteger(value) && value > 1 ? value : 1;

/**
 * Answers the upstream generates and bills for a text-generating pass-through call, each up to its
 * limit: a legacy completion generates `best_of` (at least `n`) per prompt, and a batch of prompts
 * (an array of strings or of token arrays) as many times over; a response is one answer.
 */
export function answersOf(operation: PassThroughOperation, body: JsonObject): number {
  if (operation !== 'completions') return 1;
  const prompt = body['prompt'];
  const prompts =
    Array.isArray(prompt) && prompt.length > 0 && typeof prompt[0] !== 'number' ? prompt.length : 1;
  return prompts * Math.max(countOf(body['n']), countOf(body['best_of']));
}

/** Strings, and the `text` of objects (a rerank document, a moderation content part). */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value))
    return value
      .map(textOf)
      .filter((text) => text !== '')
      .join('\n');
  if (typeof value === 'object' && value !== null) {
    const text = (value as { text?: unknown }).text;
    return typeof text === 'string' ? text : '';
  }
  return '';
}

/** The prompt as counted from the body's text fields, for upstreams that report no usage. */
export function countedPassThroughUsage(
  body: JsonObject,
  fallbackPromptTokens: number,
  counter: TokenCounter,
): NormalizedUsage {
  const text = [body['instructions'], body['prompt'], body['input'], body['query'], body['documents']]
    .map(textOf)
    .filter((t) => t !== '')
    .join('\n');
  return {
    prompt_tokens: text === '' ? fallbackPromptTokens : counter.countTextTokens(text),
    completion_tokens: 0,
    cached_tokens: 0,
  };
}

/**
 * Usage from a pass-through JSON answer or stream event: a top-level `usage` (completions, embeddings,
 * images) or the Responses API's `response.usage` (its `response.completed` event).
 */
export function usageInPayload(payload: unknown): NormalizedUsage | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const record = payload as JsonObject;
  const direct = normalizeOpenAiUsage(record['usage']);
  if (direct !== undefined) return direct;
  const response = record['response'];
  return typeof response === 'object' && response !== null
    ? normalizeOpenAiUsage((response as JsonObject)['usage'])
    : undefined;
}
