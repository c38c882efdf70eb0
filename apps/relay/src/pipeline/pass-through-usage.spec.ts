import { answersOf, countedPassThroughUsage, maxOutputTokensOf, usageInPayload } from './pass-through-usage';

const words = { countTextTokens: (text: string) => text.split(/\s+/).length, countPromptTokens: () => 0 };

describe('pass-through usage', () => {
  it('allows no answer tokens to embeddings, images and speech, and the client limit to text', () => {
    expect(maxOutputTokensOf('embeddings', { max_tokens: 5 })).toBe(0);
    expect(maxOutputTokensOf('completions', { max_tokens: 5 })).toBe(5);
    expect(maxOutputTokensOf('responses', { max_output_tokens: 9 })).toBe(9);
    expect(maxOutputTokensOf('responses', {})).toBeUndefined();
  });

  it('reads usage at the top or inside a Responses event', () => {
    expect(usageInPayload({ usage: { prompt_tokens: 4, total_tokens: 4 } })).toEqual({
      prompt_tokens: 4,
      completion_tokens: 0,
      cached_tokens: 0,
    });
    expect(
      usageInPayload({
        type: 'response.completed',
        response: { usage: { input_tokens: 3, output_tokens: 2 } },
      }),
    ).toEqual({ prompt_tokens: 3, completion_tokens: 2, cached_tokens: 0 });
    expect(usageInPayload({ type: 'response.output_text.delta' })).toBeUndefined();
  });

  it('counts the text fields when the upstream reports nothing, else falls back to the estimate', () => {
    expect(countedPassThroughUsage({ input: ['one two', 'three'] }, 99, words).prompt_tokens).toBe(3);
    expect(countedPassThroughUsage({ input: [[1, 2]] }, 99, words).prompt_tokens).toBe(99);
  });
});

describe('answersOf', () => {
  it('counts every completion a legacy completions call generates: best_of or n, for each prompt', () => {
    expect(answersOf('completions', { prompt: 'a', n: 2 })).toBe(2);
    expect(answersOf('completions', { prompt: 'a', n: 2, best_of: 5 })).toBe(5);
    expect(answersOf('completions', { prompt: ['a', 'b', 'c'], n: 2 })).toBe(6);
    expect(answersOf('completions', { prompt: [1, 2, 3] })).toBe(1);
    expect(answersOf('completions', { prompt: [[1, 2], [3]] })).toBe(2);
    expect(answersOf('responses', { input: 'a', n: 3 })).toBe(1);
  });
});
