import { countTokens } from 'gpt-tokenizer';
import { countPromptTokens, PromptTokenCounter } from './prompt-tokens';

describe('countPromptTokens', () => {
  it('counts the parts joined with a newline', () => {
    expect(countPromptTokens(['You are terse.', 'Hello there'])).toBe(
      countTokens('You are terse.\nHello there'),
    );
  });

  it('counts special-token strings in user text as plain text instead of throwing', () => {
    expect(countPromptTokens(['hi <|endoftext|>'])).toBeGreaterThan(3);
  });

  it('is zero for no text', () => {
    expect(countPromptTokens([])).toBe(0);
    expect(countPromptTokens([''])).toBe(0);
  });
});

describe('PromptTokenCounter', () => {
  it('agrees with countPromptTokens, cached or not', () => {
    const counter = new PromptTokenCounter(2);
    const parts = ['system prompt', 'user question'];
    expect(counter.count(parts)).toBe(countPromptTokens(parts));
    expect(counter.count(parts)).toBe(countPromptTokens(parts));
    counter.count(['a']);
    counter.count(['b']);
    expect(counter.count(parts)).toBe(countPromptTokens(parts));
  });
});
