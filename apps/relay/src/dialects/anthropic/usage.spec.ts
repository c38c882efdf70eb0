import { aUsageWithCacheWrites } from '@tollgate/testing';
import { toAnthropicUsage } from './usage';

describe('toAnthropicUsage', () => {
  it('tells the writes kept an hour apart from the 5-minute ones, as Anthropic does', () => {
    expect(toAnthropicUsage(aUsageWithCacheWrites())).toEqual({
      input_tokens: 1000,
      output_tokens: 500,
      cache_read_input_tokens: 2000,
      cache_creation_input_tokens: 7000,
      cache_creation: { ephemeral_5m_input_tokens: 4000, ephemeral_1h_input_tokens: 3000 },
    });
  });

  it('tells no split when every write was a 5-minute one', () => {
    expect(
      toAnthropicUsage({ prompt_tokens: 40, completion_tokens: 1, cached_tokens: 0, cache_write_tokens: 30 }),
    ).not.toHaveProperty('cache_creation');
  });
});
