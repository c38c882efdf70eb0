import { matchRoute } from './fake-upstream.routes';

describe('matchRoute', () => {
  it.each([
    ['POST', '/v1/chat/completions', 'openai.chat.completions'],
    ['POST', '/v1/responses', 'openai.responses'],
    ['POST', '/v1/messages', 'anthropic.messages'],
    ['POST', '/v1beta/models/gemini-2.5-flash:generateContent', 'gemini.generateContent'],
    ['POST', '/v1beta/models/gemini-2.5-flash:streamGenerateContent', 'gemini.streamGenerateContent'],
    ['POST', '/openai/deployments/my-gpt/chat/completions', 'azure.chat.completions'],
    ['GET', '/v1/models', 'openai.models'],
  ])('%s %s → %s', (method, path, id) => {
    expect(matchRoute(method, path, {})?.route.id).toBe(id);
  });

  it('takes the model and deployment from the path', () => {
    expect(matchRoute('POST', '/v1beta/models/gemini-2.5-pro:generateContent', {})?.params).toEqual({
      model: 'gemini-2.5-pro',
    });
    expect(matchRoute('POST', '/openai/deployments/prod%20gpt/embeddings', {})?.params).toEqual({
      deployment: 'prod gpt',
    });
  });

  it("serves Anthropic's model list to Anthropic clients", () => {
    expect(matchRoute('GET', '/v1/models', { 'anthropic-version': '2023-06-01' })?.route.id).toBe(
      'anthropic.models',
    );
  });

  it('matches nothing for unknown paths, methods or Gemini operations', () => {
    expect(matchRoute('GET', '/v1/chat/completions', {})).toBeUndefined();
    expect(matchRoute('POST', '/v1/unknown', {})).toBeUndefined();
    expect(matchRoute('POST', '/v1beta/models/x:predictLongRunning', {})).toBeUndefined();
  });
});
