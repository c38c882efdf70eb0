import { withoutProviderPrefix } from './provider-prefix';

/** The providers a catalogue prices its models under. */
const catalogue = {
  providerOf: (model: string): string | undefined =>
    ({
      'gpt-4o-mini': 'openai',
      'claude-sonnet-4-5': 'anthropic',
      'grok-4': 'xai',
      'glm-4.6': 'zhipu',
      'kimi-k2': 'Moonshot',
      'DeepSeek-V3': 'deepseek',
      // An id with a slash, as some catalogues have: its prefix is no provider's.
      'deepseek-ai/DeepSeek-V3': 'siliconflow',
    })[model],
};

describe('withoutProviderPrefix', () => {
  it("takes off an OpenRouter prefix that is the model's provider in the catalogue", () => {
    expect(withoutProviderPrefix('openai/gpt-4o-mini', catalogue)).toBe('gpt-4o-mini');
    expect(withoutProviderPrefix('anthropic/claude-sonnet-4-5', catalogue)).toBe('claude-sonnet-4-5');
    expect(withoutProviderPrefix('deepseek/DeepSeek-V3', catalogue)).toBe('DeepSeek-V3');
  });

  it('reads the prefixes OpenRouter spells otherwise as the catalogue names their providers', () => {
    expect(withoutProviderPrefix('x-ai/grok-4', catalogue)).toBe('grok-4');
    expect(withoutProviderPrefix('z-ai/glm-4.6', catalogue)).toBe('glm-4.6');
    // The catalogue's provider names are typed by an operator: their case does not matter.
    expect(withoutProviderPrefix('moonshotai/kimi-k2', catalogue)).toBe('kimi-k2');
  });

  it("leaves a prefix that is not the model's provider, or a model the catalogue does not price, as asked", () => {
    expect(withoutProviderPrefix('anthropic/gpt-4o-mini', catalogue)).toBe('anthropic/gpt-4o-mini');
    expect(withoutProviderPrefix('xai/glm-4.6', catalogue)).toBe('xai/glm-4.6');
    expect(withoutProviderPrefix('constructor/gpt-4o-mini', catalogue)).toBe('constructor/gpt-4o-mini');
    expect(withoutProviderPrefix('openai/gpt-5-made-up', catalogue)).toBe('openai/gpt-5-made-up');
    expect(withoutProviderPrefix('/gpt-4o-mini', catalogue)).toBe('/gpt-4o-mini');
  });

  it('keeps a name the catalogue prices as it is, slash and all, and a name without a slash', () => {
    expect(withoutProviderPrefix('deepseek-ai/DeepSeek-V3', catalogue)).toBe('deepseek-ai/DeepSeek-V3');
    // Even where the prefix rule would serve another model: the exact id wins.
    const both = {
      providerOf: (model: string) => ({ 'openai/gpt-4o-mini': 'openrouter', 'gpt-4o-mini': 'openai' })[model],
    };
    expect(withoutProviderPrefix('openai/gpt-4o-mini', both)).toBe('openai/gpt-4o-mini');
    expect(withoutProviderPrefix('gpt-4o-mini', catalogue)).toBe('gpt-4o-mini');
  });
});
