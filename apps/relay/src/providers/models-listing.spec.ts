import { anthropicAdapter } from './anthropic/anthropic.adapter';
import { geminiAdapter } from './gemini/gemini.adapter';
import { parseDataIds, parseGeminiModels } from './models-listing';
import { createOpenAiStyleAdapter, OPENAI_DESCRIPTOR } from './openai/openai-style.adapter';

const target = { baseUrl: '', apiKey: 'sk-test', upstreamModel: '' };

describe('model lists of the upstream families', () => {
  it('asks each family where it lists models, with its own authentication', () => {
    expect(createOpenAiStyleAdapter(OPENAI_DESCRIPTOR).modelsListing!.request(target)).toEqual({
      url: 'https://api.openai.com/v1/models',
      headers: { authorization: 'Bearer sk-test' },
    });
    expect(anthropicAdapter.modelsListing!.request({ ...target, baseUrl: 'https://proxy.test/' })).toEqual({
      url: 'https://proxy.test/v1/models?limit=1000',
      headers: { 'x-api-key': 'sk-test', 'anthropic-version': expect.any(String) },
    });
    expect(geminiAdapter.modelsListing!.request(target)).toEqual({
      url: 'https://generativelanguage.googleapis.com/v1beta/models?pageSize=1000',
      headers: { 'x-goog-api-key': 'sk-test' },
    });
  });

  it('reads the ids of OpenAI-, Anthropic- and Gemini-shaped answers, and refuses anything else', () => {
    expect(
      parseDataIds({ object: 'list', data: [{ id: 'gpt-4o' }, { id: 'o3-mini' }, { id: '' }, {}] }),
    ).toEqual(['gpt-4o', 'o3-mini']);
    expect(
      parseGeminiModels({ models: [{ name: 'models/gemini-2.5-flash' }, { name: 'gemini-pro' }] }),
    ).toEqual(['gemini-2.5-flash', 'gemini-pro']);
    expect(() => parseDataIds({ error: 'nope' })).toThrow('did not answer with a list of models');
    expect(() => parseGeminiModels(null)).toThrow('did not answer with a list of models');
  });
});
