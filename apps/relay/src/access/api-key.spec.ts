import { extractApiKey, missingKeyMessage } from './api-key';

describe('extractApiKey', () => {
  it('reads a Bearer token, case-insensitively and trimmed', () => {
    expect(extractApiKey({ authorization: 'Bearer sk-abc' }, {})).toBe('sk-abc');
    expect(extractApiKey({ authorization: 'bearer   sk-abc  ' }, {})).toBe('sk-abc');
  });

  it('reads x-api-key, then x-goog-api-key, then ?key=', () => {
    expect(extractApiKey({ 'x-api-key': 'sk-anthropic' }, {})).toBe('sk-anthropic');
    expect(extractApiKey({ 'x-goog-api-key': 'sk-gemini' }, {})).toBe('sk-gemini');
    expect(extractApiKey({}, { key: 'sk-query' })).toBe('sk-query');
  });

  it('prefers the Bearer header over the others', () => {
    expect(
      extractApiKey({ authorization: 'Bearer sk-one', 'x-api-key': 'sk-two' }, { key: 'sk-three' }),
    ).toBe('sk-one');
  });

  it('finds nothing in an empty or non-Bearer Authorization and blank values', () => {
    expect(extractApiKey({ authorization: 'Basic abc' }, {})).toBeUndefined();
    expect(extractApiKey({ 'x-api-key': '  ' }, { key: '' })).toBeUndefined();
    expect(extractApiKey({}, undefined)).toBeUndefined();
  });

  it('names the header each protocol uses when the key is missing', () => {
    expect(missingKeyMessage('anthropic')).toContain('x-api-key');
    expect(missingKeyMessage('gemini')).toContain('x-goog-api-key');
    expect(missingKeyMessage('openai')).toContain('Bearer');
  });
});
