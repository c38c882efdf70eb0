import { toOpenAiModel } from './models';

describe('toOpenAiModel', () => {
  const pricing = {
    prompt: '0.00000015',
    completion: '0.0000006',
    input_cache_read: '0.000000075',
    currency: 'USD' as const,
  };

  it('renders a callable model in the shape of OpenAI’s model list, with OpenRouter’s fields', () => {
    expect(
      toOpenAiModel({
        name: 'gpt-4o',
        provider: 'openai',
        contextWindow: 128_000,
        updatedAt: 1_700_000_000,
        pricing,
      }),
    ).toEqual({
      id: 'gpt-4o',
      object: 'model',
      created: 1_700_000_000,
      owned_by: 'openai',
      name: 'gpt-4o',
      context_length: 128_000,
      pricing,
      top_provider: { context_length: 128_000, max_completion_tokens: null },
    });
  });

  it("names a key's alias by the model it is served on", () => {
    const alias = { name: 'gpt-4', servedBy: 'gpt-4o', provider: 'openai', contextWindow: 1, updatedAt: 1 };
    expect(toOpenAiModel(alias)).toMatchObject({ id: 'gpt-4', name: 'gpt-4o' });
  });

  it('says null for a context window the catalogue does not know', () => {
    const model = toOpenAiModel({ name: 'm', provider: 'acme', contextWindow: 0, updatedAt: 1, pricing });
    expect(model.context_length).toBeNull();
    expect(model.top_provider.context_length).toBeNull();
  });
});
