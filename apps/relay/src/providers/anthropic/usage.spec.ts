import { normalizeAnthropicUsage } from './usage';

describe('normalizeAnthropicUsage', () => {
  it('counts reads and writes into the prompt, and the writes kept an hour apart', () => {
    expect(
      normalizeAnthropicUsage({
        input_tokens: 1000,
        output_tokens: 500,
        cache_read_input_tokens: 2000,
        cache_creation_input_tokens: 7000,
        cache_creation: { ephemeral_5m_input_tokens: 4000, ephemeral_1h_input_tokens: 3000 },
      }),
    ).toEqual({
      prompt_tokens: 10_000,
      completion_tokens: 500,
      cached_tokens: 2000,
      cache_write_tokens: 7000,
      cache_write_1h_tokens: 3000,
    });
  });

  it('reads writes without a split as 5-minute writes, and no writes as none', () => {
    expect(
      normalizeAnthropicUsage({ input_tokens: 10, output_tokens: 1, cache_creation_input_tokens: 30 }),
    ).toEqual({ prompt_tokens: 40, completion_tokens: 1, cached_tokens: 0, cache_write_tokens: 30 });
    expect(
      normalizeAnthropicUsage({
        input_tokens: 10,
        output_tokens: 1,
        cache_creation_input_tokens: 0,
        cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
      }),
    ).toEqual({ prompt_tokens: 10, completion_tokens: 1, cached_tokens: 0 });
  });

  it('sums the split when the total is missing, and caps an hour beyond the total', () => {
    expect(
      normalizeAnthropicUsage({
        input_tokens: 0,
        output_tokens: 0,
        cache_creation: { ephemeral_5m_input_tokens: 5, ephemeral_1h_input_tokens: 7 },
      }),
    ).toMatchObject({ prompt_tokens: 12, cache_write_tokens: 12, cache_write_1h_tokens: 7 });
    expect(
      normalizeAnthropicUsage({
        input_tokens: 0,
        output_tokens: 0,
        cache_creation_input_tokens: 4,
        cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 9 },
      }),
    ).toMatchObject({ cache_write_tokens: 4, cache_write_1h_tokens: 4 });
  });
});
