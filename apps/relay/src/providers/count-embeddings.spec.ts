import { anthropicTokenCounting } from './anthropic/count-tokens';
import { geminiTokenCounting } from './gemini/count-tokens';
import { geminiEmbeddings } from './gemini/embeddings';
import { openAiEmbeddingsBody, parseOpenAiEmbeddings } from './openai/embeddings';
import { type ChatCompletionRequest, MalformedUpstreamResponseError } from '../canonical';

const target = { baseUrl: 'https://upstream.example', apiKey: 'k', upstreamModel: 'up-model' };
const request: ChatCompletionRequest = {
  model: 'asked',
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Hi' },
  ],
  max_tokens: 100,
  temperature: 0.5,
  stream: true,
  tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} } } }],
};

describe('upstream token counting', () => {
  it("asks Anthropic's count_tokens with the Messages fields it takes, and reads input_tokens", () => {
    const built = anthropicTokenCounting.request(request, target);
    expect(built.url).toBe('https://upstream.example/v1/messages/count_tokens');
    expect(built.headers).toMatchObject({ 'x-api-key': 'k', 'anthropic-version': expect.any(String) });
    expect(JSON.parse(built.body)).toEqual({
      model: 'up-model',
      system: 'Be brief.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      tools: [{ name: 'f', input_schema: { type: 'object', properties: {} } }],
    });
    expect(built.stream).toBe(false);
    expect(anthropicTokenCounting.parse({ input_tokens: 12 })).toBe(12);
    expect(() => anthropicTokenCounting.parse({})).toThrow(MalformedUpstreamResponseError);
  });

  it("asks Gemini's countTokens with the whole GenerateContentRequest, and reads totalTokens", () => {
    const built = geminiTokenCounting.request(request, target);
    expect(built.url).toBe('https://upstream.example/v1beta/models/up-model:countTokens');
    const body = JSON.parse(built.body) as { generateContentRequest: Record<string, unknown> };
    expect(body.generateContentRequest).toMatchObject({
      model: 'models/up-model',
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      contents: [{ role: 'user', parts: [{ text: 'Hi' }] }],
      tools: [{ functionDeclarations: [expect.objectContaining({ name: 'f' })] }],
    });
    expect(body.generateContentRequest).not.toHaveProperty('generationConfig');
    expect(geminiTokenCounting.parse({ totalTokens: 7 })).toBe(7);
    // proto3 JSON leaves zero out.
    expect(geminiTokenCounting.parse({})).toBe(0);
    expect(() => geminiTokenCounting.parse({ totalTokens: 'x' })).toThrow(MalformedUpstreamResponseError);
  });
});

describe('upstream embeddings', () => {
  it('sends texts to an OpenAI-style endpoint as floats and reads vectors in index order', () => {
    expect(openAiEmbeddingsBody({ texts: ['a', 'b'], dimensions: 8 }, 'up-model')).toEqual({
      model: 'up-model',
      input: ['a', 'b'],
      encoding_format: 'float',
      dimensions: 8,
    });
    expect(
      parseOpenAiEmbeddings(
        {
          data: [
            { index: 1, embedding: [0.3] },
            { index: 0, embedding: [0.1] },
          ],
          usage: { prompt_tokens: 2, total_tokens: 2 },
        },
        2,
      ),
    ).toEqual({
      vectors: [[0.1], [0.3]],
      usage: { prompt_tokens: 2, completion_tokens: 0, cached_tokens: 0 },
    });
    expect(() => parseOpenAiEmbeddings({ data: [{ index: 0, embedding: 'AAAA' }] }, 1)).toThrow(
      MalformedUpstreamResponseError,
    );
    expect(() => parseOpenAiEmbeddings({ data: [] }, 1)).toThrow(MalformedUpstreamResponseError);
  });

  it("sends texts to Gemini's batchEmbedContents, one request each, and reads values without usage", () => {
    const built = geminiEmbeddings.request({ texts: ['a', 'b'], dimensions: 8 }, target);
    expect(built.url).toBe('https://upstream.example/v1beta/models/up-model:batchEmbedContents');
    expect(JSON.parse(built.body)).toEqual({
      requests: ['a', 'b'].map((text) => ({
        model: 'models/up-model',
        content: { parts: [{ text }] },
        outputDimensionality: 8,
      })),
    });
    expect(geminiEmbeddings.parse({ embeddings: [{ values: [1] }, { values: [2] }] }, 2)).toEqual({
      vectors: [[1], [2]],
    });
    expect(() => geminiEmbeddings.parse({ embeddings: [{ values: [1] }] }, 2)).toThrow(
      MalformedUpstreamResponseError,
    );
  });
});
