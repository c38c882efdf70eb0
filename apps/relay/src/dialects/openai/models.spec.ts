import { toOpenAiModel } from './models';

describe('toOpenAiModel', () => {
  it('renders a callable model in the shape of OpenAI’s model list', () => {
    expect(
      toOpenAiModel({ name: 'gpt-4o', provider: 'openai', contextWindow: 128_000, updatedAt: 1_700_000_000 }),
    ).toEqual({ id: 'gpt-4o', object: 'model', created: 1_700_000_000, owned_by: 'openai' });
  });
});
