import type { ModelPricing } from '@tollgate/contracts';
import { filterModels, sortModels } from './model-sort';

function model(name: string, overrides: Partial<ModelPricing> = {}): ModelPricing {
  return {
    model: name,
    provider: 'openai',
    context_window: 128_000,
    input_price: 1,
    output_price: 2,
    cached_input_price: 0.5,
    intelligence: 3,
    speed: 3,
    sota: false,
    deprecated: false,
    ...overrides,
  };
}

describe('model list order', () => {
  const models = [
    model('b', { intelligence: 5, input_price: 3 }),
    model('a', { intelligence: 4, input_price: 0.1, deprecated: true }),
    model('c', { intelligence: 2, input_price: 0.2, provider: 'anthropic' }),
  ];

  it('puts the smartest first and deprecated models last', () => {
    expect(sortModels(models, 'intelligence').map((m) => m.model)).toEqual(['b', 'c', 'a']);
  });

  it('puts the cheapest first when sorting by price', () => {
    expect(sortModels(models, 'input_price').map((m) => m.model)).toEqual(['c', 'b', 'a']);
  });

  it('filters by model or provider, ignoring case', () => {
    expect(filterModels(models, 'ANTHROP').map((m) => m.model)).toEqual(['c']);
    expect(filterModels(models, ' ')).toHaveLength(3);
  });
});
