import { tokenCount, type NormalizedUsage } from '../../canonical';
import type { AnthropicUsage } from './types';

/**
 * Anthropic counts cache reads and cache writes apart from `input_tokens`; the canonical prompt
 * count includes both, cached tokens are the reads and cache-write tokens the writes.
 */
export function normalizeAnthropicUsage(usage: Partial<AnthropicUsage> | undefined): NormalizedUsage {
  const cacheRead = tokenCount(usage?.cache_read_input_tokens);
  const cacheWrite = tokenCount(usage?.cache_creation_input_tokens);
  const normalized: NormalizedUsage = {
    prompt_tokens: tokenCount(usage?.input_tokens) + cacheRead + cacheWrite,
    completion_tokens: tokenCount(usage?.output_tokens),
    cached_tokens: cacheRead,
  };
  if (cacheWrite > 0) normalized.cache_write_tokens = cacheWrite;
  return normalized;
}
