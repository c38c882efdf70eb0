import { tokenCount, type NormalizedUsage } from '../../canonical';
import type { GeminiUsageMetadata } from './types';

/**
 * promptTokenCount already includes cached content; thinking tokens are billed as output, so
 * they count as completion tokens, as do tool-use prompt tokens for the prompt side.
 */
export function normalizeGeminiUsage(usage: GeminiUsageMetadata | undefined): NormalizedUsage {
  return {
    prompt_tokens: tokenCount(usage?.promptTokenCount) + tokenCount(usage?.toolUsePromptTokenCount),
    completion_tokens: tokenCount(usage?.candidatesTokenCount) + tokenCount(usage?.thoughtsTokenCount),
    cached_tokens: tokenCount(usage?.cachedContentTokenCount),
  };
}
