import type { ChatCompletionRequest } from '../canonical';

let mockEncodingLoads = 0;
jest.mock('gpt-tokenizer/cjs/encoding/o200k_base', () => {
  mockEncodingLoads++;
  return jest.requireActual<object>('gpt-tokenizer/cjs/encoding/o200k_base');
});

const request: ChatCompletionRequest = { model: 'gpt-4o', messages: [{ role: 'user', content: 'hello' }] };

describe('the o200k_base encoding', () => {
  it('is not loaded by importing token counting nor to size a reservation, only by the first count', async () => {
    const { countTextTokens, promptTokensUpperBound } = await import('./index');
    promptTokensUpperBound(100, request);
    expect(mockEncodingLoads).toBe(0);

    expect(countTextTokens('hello world')).toBe(2);
    expect(countTextTokens('hello again')).toBe(2);
    expect(mockEncodingLoads).toBe(1);
  });
});
