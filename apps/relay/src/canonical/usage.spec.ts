import { normalizeOpenAiUsage, toOpenAiUsage } from './usage';

describe('normalizeOpenAiUsage', () => {
  it('reads chat usage with cached prompt tokens', () => {
    expect(
      normalizeOpenAiUsage({
        prompt_tokens: 2006,
        completion_tokens: 300,
        total_tokens: 2306,
        prompt_tokens_details: { cached_tokens: 1920, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0 },
      }),
    ).toEqual({ prompt_tokens: 2006, completion_tokens: 300, cached_tokens: 1920 });
  });

  it('reads embeddings usage (prompt only) and DeepSeek cache hits', () => {
    expect(normalizeOpenAiUsage({ prompt_tokens: 8, total_tokens: 8 })).toEqual({
      prompt_tokens: 8,
      completion_tokens: 0,
      cached_tokens: 0,
    });
    expect(
      normalizeOpenAiUsage({
        prompt_tokens: 100,
        completion_tokens: 4,
        prompt_cache_hit_tokens: 64,
        prompt_cache_miss_tokens: 36,
      }),
    ).toEqual({ prompt_tokens: 100, completion_tokens: 4, cached_tokens: 64 });
  });

  it('reads Responses API usage', () => {
    expect(
      normalizeOpenAiUsage({
        input_tokens: 36,
        input_tokens_details: { cached_tokens: 12 },
        output_tokens: 87,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 123,
      }),
    ).toEqual({ prompt_tokens: 36, completion_tokens: 87, cached_tokens: 12 });
  });

  it('returns undefined when there is no usage block and ignores nonsense counts', () => {
    expect(normalizeOpenAiUsage(undefined)).toBeUndefined();
    expect(normalizeOpenAiUsage({ prompt_tokens: -3, completion_tokens: 'many' })).toEqual({
      prompt_tokens: 0,
      completion_tokens: 0,
      cached_tokens: 0,
    });
  });

  it('writes the canonical block back with totals', () => {
    expect(toOpenAiUsage({ prompt_tokens: 10, completion_tokens: 5, cached_tokens: 4 })).toEqual({
      prompt_tokens: 10,
      completion_tokens: 5,
      total_tokens: 15,
      prompt_tokens_details: { cached_tokens: 4 },
    });
  });

  it('carries cache writes and the hour-long part of them through the canonical block', () => {
    const usage = {
      prompt_tokens: 10,
      completion_tokens: 5,
      cached_tokens: 2,
      cache_write_tokens: 6,
      cache_write_1h_tokens: 4,
    };
    expect(toOpenAiUsage(usage).prompt_tokens_details).toEqual({
      cached_tokens: 2,
      cache_write_tokens: 6,
      cache_write_1h_tokens: 4,
    });
    expect(normalizeOpenAiUsage(toOpenAiUsage(usage))).toEqual(usage);
    const fiveMinutes = { ...usage, cache_write_1h_tokens: undefined };
    expect(toOpenAiUsage(fiveMinutes).prompt_tokens_details).toEqual({
      cached_tokens: 2,
      cache_write_tokens: 6,
    });
  });
});
