/** Token counts in one shape whatever the upstream reported; prompt tokens include cached ones. */
export interface NormalizedUsage {
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
}

export function tokenCount(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

function objectOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/**
 * Usage from an OpenAI-style block: Chat Completions and Completions (`prompt_tokens`), Embeddings
 * (prompt only) and the Responses API (`input_tokens` / `output_tokens`).
 */
export function normalizeOpenAiUsage(usage: unknown): NormalizedUsage | undefined {
  const block = objectOf(usage);
  if (block === undefined) return undefined;
  if ('input_tokens' in block || 'output_tokens' in block) {
    return {
      prompt_tokens: tokenCount(block['input_tokens']),
      completion_tokens: tokenCount(block['output_tokens']),
      cached_tokens: tokenCount(objectOf(block['input_tokens_details'])?.['cached_tokens']),
    };
  }
  return {
    prompt_tokens: tokenCount(block['prompt_tokens']),
    completion_tokens: tokenCount(block['completion_tokens']),
    // DeepSeek reports its cache hits as prompt_cache_hit_tokens.
    cached_tokens: tokenCount(
      objectOf(block['prompt_tokens_details'])?.['cached_tokens'] ?? block['prompt_cache_hit_tokens'],
    ),
  };
}

/** The canonical usage block for a normalised count. */
export function toOpenAiUsage(usage: NormalizedUsage) {
  return {
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: usage.completion_tokens,
    total_tokens: usage.prompt_tokens + usage.completion_tokens,
    prompt_tokens_details: { cached_tokens: usage.cached_tokens },
  };
}
