import type { AnthropicUsage } from './types';

/** How Anthropic splits `cache_creation_input_tokens` by the written entries' lifetime. */
export interface AnthropicCacheCreation {
  ephemeral_5m_input_tokens: number;
  ephemeral_1h_input_tokens: number;
}

/** Anthropic's usage block with its cache-write split (absent from older answers, null on some). */
export interface AnthropicUsageWithCacheCreation extends AnthropicUsage {
  cache_creation?: AnthropicCacheCreation | null;
}
