import { createHash } from 'node:crypto';
import { MIN_CACHEABLE_TOKENS } from '../../generation/prompt-cache';
import type { Reply, UpstreamRequest } from '../../fake-upstream.reply';
import { asArray, asObject, asPositiveInt, asString, type JsonObject } from '../../request-fields';
import { anthropicError } from './anthropic.family';

/** What the fake thinks when asked to (extended thinking), before its usual answer. */
export const FAKE_THINKING = 'The user asked something; I will answer with the usual text.';

const MIN_THINKING_BUDGET = 1024;

/** A signature the fake can check when the block comes back: a hash of the thinking text. */
export function fakeThinkingSignature(thinking: string): string {
  return createHash('sha256').update(`fake-thinking:${thinking}`).digest('base64');
}

/**
 * The request's thinking budget when thinking is enabled (undefined when not), or Anthropic's 400
 * for a budget it refuses.
 */
export function thinkingBudget(body: JsonObject, maxTokens: number): number | undefined | Reply {
  const thinking = asObject(body['thinking']);
  if (thinking?.['type'] !== 'enabled') return undefined;
  const budget = asPositiveInt(thinking['budget_tokens']);
  if (budget === undefined) return anthropicError(400, 'thinking.enabled.budget_tokens: Field required');
  if (budget < MIN_THINKING_BUDGET)
    return anthropicError(
      400,
      `thinking.enabled.budget_tokens: Input should be greater than or equal to ${MIN_THINKING_BUDGET}`,
    );
  if (budget >= maxTokens)
    return anthropicError(400, '`max_tokens` must be greater than `thinking.budget_tokens`.');
  return budget;
}

/** Anthropic's 400 for a history thinking block that lost its signature (or redacted_thinking its data). */
export function historyThinkingError(messages: readonly unknown[]): Reply | undefined {
  for (const [turn, message] of messages.entries()) {
    if (asObject(message)?.['role'] !== 'assistant') continue;
    for (const [index, block] of (asArray(asObject(message)?.['content']) ?? []).entries()) {
      const object = asObject(block);
      const where = `messages.${turn}.content.${index}`;
      if (object?.['type'] === 'thinking') {
        const signature = asString(object['signature']);
        if (signature === undefined)
          return anthropicError(400, `${where}.thinking.signature: Field required`);
        if (signature !== fakeThinkingSignature(asString(object['thinking']) ?? ''))
          return anthropicError(400, `${where}: Invalid \`signature\` in \`thinking\` block`);
      } else if (object?.['type'] === 'redacted_thinking' && asString(object['data']) === undefined) {
        return anthropicError(400, `${where}.redacted_thinking.data: Field required`);
      }
    }
  }
  return undefined;
}

export interface CacheUsage {
  /** Whether the request set a cache breakpoint: Anthropic then tells `cache_creation`'s split. */
  asked: boolean;
  cacheCreation: number;
  /** Of `cacheCreation`, the tokens written for an hour (`cache_control.ttl: '1h'`). */
  cacheCreation1h: number;
  cacheRead: number;
}

const NO_CACHE: CacheUsage = { asked: false, cacheCreation: 0, cacheCreation1h: 0, cacheRead: 0 };
const NOTHING_CACHED: CacheUsage = { ...NO_CACHE, asked: true };

/** The breakpoint's lifetime: `ttl: '1h'`, or Anthropic's default of 5 minutes; undefined without one. */
function breakpointTtl(block: unknown): '5m' | '1h' | undefined {
  const cacheControl = asObject(asObject(block)?.['cache_control']);
  if (cacheControl?.['type'] !== 'ephemeral') return undefined;
  return cacheControl['ttl'] === '1h' ? '1h' : '5m';
}

interface CachedPrefix {
  parts: string[];
  /** How many of `parts` come before the last 1-hour breakpoint (Anthropic wants those first). */
  hourParts: number;
}

/**
 * The text parts before the request's last cache breakpoint, in Anthropic's cache order (system, then
 * messages; tools are not counted by the fake), with the texts the prompt count reads.
 */
function cachedPrefix(body: JsonObject, messages: readonly unknown[]): CachedPrefix {
  const parts: string[] = [];
  let end = 0;
  let hourEnd = 0;
  const read = (content: unknown): void => {
    if (typeof content === 'string') {
      parts.push(content);
      return;
    }
    for (const block of asArray(content) ?? []) {
      const object = asObject(block);
      if (object?.['type'] === 'text') parts.push(asString(object['text']) ?? '');
      else if (object?.['type'] === 'tool_result') read(object['content']);
      const ttl = breakpointTtl(block);
      if (ttl !== undefined) end = parts.length;
      if (ttl === '1h') hourEnd = parts.length;
    }
  };
  read(body['system']);
  for (const message of messages) read(asObject(message)?.['content']);
  return { parts: parts.slice(0, end), hourParts: hourEnd };
}

/**
 * Prompt caching as Anthropic bills it: a long enough prefix is written on first use and read after;
 * what lies before the last 1-hour breakpoint is written for an hour, the rest for 5 minutes.
 */
export function cacheUsage(
  request: UpstreamRequest,
  body: JsonObject,
  messages: readonly unknown[],
): CacheUsage {
  const prefix = cachedPrefix(body, messages);
  if (prefix.parts.length === 0) return NO_CACHE;
  const tokens = request.promptTokens.count(prefix.parts);
  if (tokens < MIN_CACHEABLE_TOKENS) return NOTHING_CACHED;
  if (request.promptCache.hit(prefix.parts)) return { ...NOTHING_CACHED, cacheRead: tokens };
  const hourTokens =
    prefix.hourParts === 0
      ? 0
      : Math.min(tokens, request.promptTokens.count(prefix.parts.slice(0, prefix.hourParts)));
  return { asked: true, cacheCreation: tokens, cacheCreation1h: hourTokens, cacheRead: 0 };
}
