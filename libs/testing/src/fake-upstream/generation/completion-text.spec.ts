import { countTokens } from 'gpt-tokenizer';
import { completionBudget, completionText, evenSplitBounds, splitIntoPieces } from './completion-text';

describe('completionText', () => {
  it.each([1, 2, 7, 16, 39, 40, 100, 257])('has exactly %i o200k tokens', (tokens) => {
    expect(countTokens(completionText(tokens, 16).text)).toBe(tokens);
  });

  it('cuts the text into the asked number of chunks that join back to it', () => {
    const completion = completionText(16, 5);
    expect(completion.chunks).toHaveLength(5);
    expect(completion.chunks.join('')).toBe(completion.text);
    expect(completion.tokens).toBe(16);
  });

  it('never makes more chunks than tokens', () => {
    expect(completionText(3, 10).chunks).toEqual(['Lorem', ' ipsum', ' dolor']);
  });

  it('is deterministic and cached', () => {
    expect(completionText(12, 4)).toBe(completionText(12, 4));
  });
});

describe('evenSplitBounds', () => {
  it('gives runs whose sizes differ by at most one', () => {
    expect(evenSplitBounds(10, 4)).toEqual([0, 2, 5, 7, 10]);
  });
});

describe('splitIntoPieces', () => {
  it('keeps code points whole', () => {
    const pieces = splitIntoPieces('a😀b😀', 4);
    expect(pieces).toEqual(['a', '😀', 'b', '😀']);
  });

  it('returns one empty piece for an empty string', () => {
    expect(splitIntoPieces('', 3)).toEqual(['']);
  });
});

describe('completionBudget', () => {
  it('keeps the configured count when the request allows it', () => {
    expect(completionBudget(16, 100)).toEqual({ tokens: 16, truncated: false });
    expect(completionBudget(16, undefined)).toEqual({ tokens: 16, truncated: false });
  });

  it('obeys a smaller max-tokens and reports the truncation', () => {
    expect(completionBudget(16, 5)).toEqual({ tokens: 5, truncated: true });
  });
});
