import type { NormalizedUsage } from '../../canonical';
import type { AnthropicUsage } from '../../providers/anthropic/types';

/**
 * Usage as Anthropic clients read it: cached tokens are reported as cache reads, cache-write tokens as
 * cache creation, and input_tokens is the rest of the prompt.
 */
export function toAnthropicUsage(usage: NormalizedUsage): AnthropicUsage {
  const cacheWrites = usage.cache_write_tokens ?? 0;
  return {
    input_tokens: Math.max(0, usage.prompt_tokens - usage.cached_tokens - cacheWrites),
    output_tokens: usage.completion_tokens,
    cache_creation_input_tokens: cacheWrites,
    cache_read_input_tokens: usage.cached_tokens,
  };
}
