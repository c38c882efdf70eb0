import type { NormalizedUsage } from '../../canonical';
import type { AnthropicUsage } from '../../providers/anthropic/types';

/**
 * The usage block with Anthropic's split of the cache writes by lifetime (the shape of
 * providers/anthropic/usage-types.ts, which a dialect may not import: only the family's types.ts).
 */
export interface AnthropicUsageWithCacheCreation extends AnthropicUsage {
  cache_creation?: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
}

/**
 * Usage as Anthropic clients read it: cached tokens are reported as cache reads, cache-write tokens as
 * cache creation (split by lifetime when some were kept an hour), and input_tokens is the rest of the prompt.
 */
export function toAnthropicUsage(usage: NormalizedUsage): AnthropicUsageWithCacheCreation {
  const cacheWrites = usage.cache_write_tokens ?? 0;
  const rendered: AnthropicUsageWithCacheCreation = {
    input_tokens: Math.max(0, usage.prompt_tokens - usage.cached_tokens - cacheWrites),
    output_tokens: usage.completion_tokens,
    cache_creation_input_tokens: cacheWrites,
    cache_read_input_tokens: usage.cached_tokens,
  };
  // The split is told when some writes were kept an hour; otherwise all were the 5-minute default.
  const writesFor1h = Math.min(usage.cache_write_1h_tokens ?? 0, cacheWrites);
  if (writesFor1h > 0) {
    rendered.cache_creation = {
      ephemeral_5m_input_tokens: cacheWrites - writesFor1h,
      ephemeral_1h_input_tokens: writesFor1h,
    };
  }
  return rendered;
}
