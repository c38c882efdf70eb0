/** Token counts in one shape whatever the upstream reported; prompt tokens include cached ones. */
export interface NormalizedUsage {
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
  /** Prompt tokens written to a prompt cache (Anthropic's cache_creation_input_tokens), when any. */
  cache_write_tokens?: number;
  /** Of the cache writes, those kept for an hour (Anthropic's ephemeral_1h_input_tokens), when any. */
  cache_write_1h_tokens?: number;
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
  const details = objectOf(block['prompt_tokens_details']);
  const normalized: NormalizedUsage = {
    prompt_tokens: tokenCount(block['prompt_tokens']),
    completion_tokens: tokenCount(block['completion_tokens']),
    // DeepSeek reports its cache hits as prompt_cache_hit_tokens.
    cached_tokens: tokenCount(details?.['cached_tokens'] ?? block['prompt_cache_hit_tokens']),
  };
  // Cache writes, as toOpenAiUsage tells them (OpenRouter's spelling).
  const cacheWrites = tokenCount(details?.['cache_write_tokens']);
  if (cacheWrites > 0) {
    normalized.cache_write_tokens = cacheWrites;
    // Tollgate's own field beside it: the hour's writes cost more than the 5-minute ones.
    const writesFor1h = Math.min(tokenCount(details?.['cache_write_1h_tokens']), cacheWrites);
    if (writesFor1h > 0) normalized.cache_write_1h_tokens = writesFor1h;
  }
  return normalized;
}

/** The canonical usage block for a normalised count. */
export function toOpenAiUsage(usage: NormalizedUsage) {
  return {
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: usage.completion_tokens,
    total_tokens: usage.prompt_tokens + usage.completion_tokens,
    prompt_tokens_details: promptTokensDetails(usage),
  };
}

function promptTokensDetails(usage: NormalizedUsage) {
  const writes = usage.cache_write_tokens ?? 0;
  if (writes === 0) return { cached_tokens: usage.cached_tokens };
  const writesFor1h = usage.cache_write_1h_tokens ?? 0;
  return writesFor1h === 0
    ? { cached_tokens: usage.cached_tokens, cache_write_tokens: writes }
    : { cached_tokens: usage.cached_tokens, cache_write_tokens: writes, cache_write_1h_tokens: writesFor1h };
}
