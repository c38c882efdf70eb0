import { tokenCount, type NormalizedUsage } from '../../canonical';
import type { AnthropicUsageWithCacheCreation } from './usage-types';

/**
 * Anthropic counts cache reads and cache writes apart from `input_tokens`; the canonical prompt
 * count includes both, cached tokens are the reads and cache-write tokens the writes, of which
 * `cache_creation.ephemeral_1h_input_tokens` were written for an hour (they cost more).
 */
export function normalizeAnthropicUsage(
  usage: Partial<AnthropicUsageWithCacheCreation> | undefined,
): NormalizedUsage {
  const cacheRead = tokenCount(usage?.cache_read_input_tokens);
  const split = usage?.cache_creation;
  const writesFor1h = tokenCount(split?.ephemeral_1h_input_tokens);
  const cacheWrite =
    usage?.cache_creation_input_tokens == null && split != null
      ? tokenCount(split.ephemeral_5m_input_tokens) + writesFor1h
      : tokenCount(usage?.cache_creation_input_tokens);
  const normalized: NormalizedUsage = {
    prompt_tokens: tokenCount(usage?.input_tokens) + cacheRead + cacheWrite,
    completion_tokens: tokenCount(usage?.output_tokens),
    cached_tokens: cacheRead,
  };
  if (cacheWrite > 0) normalized.cache_write_tokens = cacheWrite;
  if (cacheWrite > 0 && writesFor1h > 0) normalized.cache_write_1h_tokens = Math.min(writesFor1h, cacheWrite);
  return normalized;
}
