import { CHANNEL_TYPE_NUMBERS } from '@tollgate/contracts';
import { adapterForChannelType, supportedChannelTypes, UnknownChannelTypeError } from './registry';

describe('adapterForChannelType', () => {
  it.each([
    [1, 'openai', 'openai'],
    [3, 'azure', 'azure'],
    [14, 'anthropic', 'anthropic'],
    [24, 'gemini', 'gemini'],
    [43, 'openai', 'deepseek'],
    [26, 'openai', 'zhipu-glm'],
    [25, 'openai', 'moonshot'],
    [17, 'openai', 'qwen'],
    [42, 'openai', 'mistral'],
    [48, 'openai', 'xai'],
    [20, 'openai', 'openrouter'],
    [4, 'openai', 'ollama'],
    [8, 'openai', 'custom'],
  ])('maps new-api channel type %i to the %s family (%s)', (type, family, name) => {
    const adapter = adapterForChannelType(type);
    expect(adapter.family).toBe(family);
    expect(adapter.name).toBe(name);
  });

  it('serves every channel type the contracts list and refuses others', () => {
    expect(supportedChannelTypes().sort((a, b) => a - b)).toEqual(
      [...CHANNEL_TYPE_NUMBERS].sort((a, b) => a - b),
    );
    expect(() => adapterForChannelType(2)).toThrow(UnknownChannelTypeError);
  });
});
