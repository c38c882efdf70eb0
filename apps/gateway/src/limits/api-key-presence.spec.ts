import { carriesApiKey } from './api-key-presence';

describe('carriesApiKey', () => {
  it.each([
    [{ authorization: 'Bearer sk-abc' }, '/v1/chat/completions'],
    [{ 'x-api-key': 'sk-abc' }, '/v1/messages'],
    [{ 'x-goog-api-key': 'sk-abc' }, '/v1beta/models/gemini-2.0-flash:generateContent'],
    [{}, '/v1beta/models/gemini-2.0-flash:generateContent?key=sk-abc'],
    [{}, '/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse&key=sk-abc'],
  ])('sees the key in %j on %s', (headers, path) => {
    expect(carriesApiKey(headers, path)).toBe(true);
  });

  it.each([
    [{}, '/v1/chat/completions'],
    [{ cookie: 'session=1' }, '/v1/models'],
    [{}, '/v1beta/models?key='],
    [{}, '/v1beta/models?monkey=1'],
    [{}, '/v1/files/key=1'],
  ])('sees none in %j on %s', (headers, path) => {
    expect(carriesApiKey(headers, path)).toBe(false);
  });
});
