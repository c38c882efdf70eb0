import { MissingBaseUrlError } from '../provider-errors';
import { CUSTOM, MISTRAL, OLLAMA, ZHIPU_GLM } from '../openai-compatible/descriptors';
import type { ChannelTarget } from '../upstream-request';
import { createOpenAiStyleAdapter, openAiAdapter } from './openai-style.adapter';
import type { ChatCompletionRequest } from '../../canonical';

const target: ChannelTarget = {
  baseUrl: 'https://upstream.example/',
  apiKey: 'sk-channel',
  upstreamModel: 'gpt-4o-2024-08-06',
};
const chat: ChatCompletionRequest = {
  model: 'gpt-4o',
  messages: [{ role: 'user', content: 'Hi' }],
  temperature: 0.2,
};

describe('OpenAI adapter', () => {
  it('builds the chat request below /v1 with a bearer key and the channel model', () => {
    const request = openAiAdapter.buildChatRequest(chat, target);
    expect(request).toMatchObject({
      method: 'POST',
      url: 'https://upstream.example/v1/chat/completions',
      headers: { authorization: 'Bearer sk-channel', 'content-type': 'application/json' },
      stream: false,
    });
    expect(JSON.parse(request.body)).toEqual({ ...chat, model: 'gpt-4o-2024-08-06' });
  });

  it('uses the public API root when the channel has no base URL', () => {
    expect(openAiAdapter.buildChatRequest(chat, { ...target, baseUrl: '' }).url).toBe(
      'https://api.openai.com/v1/chat/completions',
    );
  });

  it('forces stream usage on streamed chat and completions, keeping other stream options', () => {
    const streamed = { ...chat, stream: true, stream_options: { include_obfuscation: false } };
    const body = JSON.parse(openAiAdapter.buildChatRequest(streamed, target).body);
    expect(body.stream_options).toEqual({ include_obfuscation: false, include_usage: true });
    const completions = openAiAdapter.buildPassThroughRequest(
      'completions',
      { model: 'x', prompt: 'a', stream: true },
      target,
    );
    expect(completions.stream).toBe(true);
    expect(JSON.parse(completions.body).stream_options).toEqual({ include_usage: true });
  });

  it.each([
    ['completions', '/v1/completions'],
    ['embeddings', '/v1/embeddings'],
    ['images.generations', '/v1/images/generations'],
    ['audio.speech', '/v1/audio/speech'],
    ['responses', '/v1/responses'],
  ] as const)('builds %s requests at %s with the model mapped', (operation, path) => {
    const request = openAiAdapter.buildPassThroughRequest(
      operation,
      { model: 'alias', input: 'text' },
      target,
    );
    expect(request.url).toBe(`https://upstream.example${path}`);
    expect(JSON.parse(request.body)).toEqual({ model: 'gpt-4o-2024-08-06', input: 'text' });
  });

  it('does not add stream_options to Responses API streams, which report usage in response.completed', () => {
    const request = openAiAdapter.buildPassThroughRequest(
      'responses',
      { model: 'a', input: 'x', stream: true },
      target,
    );
    expect(JSON.parse(request.body).stream_options).toBeUndefined();
  });

  it('passes chat answers through after checking their shape', () => {
    const answer = { id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'm', choices: [] };
    expect(openAiAdapter.parseChatResponse(answer, { created: 2, model: 'm' })).toBe(answer);
    expect(() => openAiAdapter.parseChatResponse({ error: {} }, { created: 2, model: 'm' })).toThrow(
      'choices',
    );
  });
});

describe('OpenAI-compatible descriptors', () => {
  it('puts Zhipu GLM paths right below its versioned root', () => {
    const request = createOpenAiStyleAdapter(ZHIPU_GLM).buildChatRequest(chat, { ...target, baseUrl: '' });
    expect(request.url).toBe('https://open.bigmodel.cn/api/paas/v4/chat/completions');
  });

  it('sends no stream_options to Mistral', () => {
    const request = createOpenAiStyleAdapter(MISTRAL).buildChatRequest({ ...chat, stream: true }, target);
    expect(JSON.parse(request.body).stream_options).toBeUndefined();
  });

  it('sends no authorization header to Ollama', () => {
    const request = createOpenAiStyleAdapter(OLLAMA).buildChatRequest(chat, { ...target, baseUrl: '' });
    expect(request.url).toBe('http://localhost:11434/v1/chat/completions');
    expect(request.headers['authorization']).toBeUndefined();
  });

  it('refuses a custom channel without a base URL', () => {
    expect(() =>
      createOpenAiStyleAdapter(CUSTOM).buildChatRequest(chat, { ...target, baseUrl: ' ' }),
    ).toThrow(MissingBaseUrlError);
  });
});
