import { groupRatioUpdateSchema, modelNameSchema, modelPriceUpdateSchema } from './pricing';

const aModelPrice = (overrides: Record<string, unknown> = {}) => ({
  provider: 'openai',
  input_price: '1.25',
  output_price: '10',
  cached_input_price: '0.125',
  context_window: 400_000,
  intelligence: 5,
  speed: 3,
  sota: true,
  deprecated: false,
  ...overrides,
});

describe('modelPriceUpdateSchema', () => {
  it('accepts decimal strings and numbers and stores their canonical spelling', () => {
    const parsed = modelPriceUpdateSchema.parse(
      aModelPrice({ input_price: 2.5, output_price: '10.000', cached_input_price: '0' }),
    );
    expect(parsed).toMatchObject({ input_price: '2.5', output_price: '10', cached_input_price: '0' });
  });

  it('takes cache-write prices as decimals, and an entry without them as one whose writes cost the input price', () => {
    expect(
      modelPriceUpdateSchema.parse(aModelPrice({ cache_write_price: 3.75, cache_write_1h_price: '6.000' })),
    ).toMatchObject({ cache_write_price: '3.75', cache_write_1h_price: '6' });
    expect(modelPriceUpdateSchema.parse(aModelPrice())).toMatchObject({
      cache_write_price: null,
      cache_write_1h_price: null,
    });
    expect(modelPriceUpdateSchema.parse(aModelPrice({ cache_write_price: null }))).toMatchObject({
      cache_write_price: null,
    });
  });

  it.each([
    ['a negative write price', { cache_write_price: '-1' }],
    ['a write price in floating point notation', { cache_write_1h_price: 1e-7 }],
    ['a negative price', { input_price: '-1' }],
    ['a negative number', { output_price: -0.5 }],
    ['too many fractional digits', { input_price: '0.0000001' }],
    ['an exponent', { input_price: 1e-7 }],
    ['an absurd price', { output_price: '10000000' }],
    ['a word', { input_price: 'free' }],
    ['a rating out of range', { intelligence: 6 }],
    ['a fractional context window', { context_window: 1.5 }],
    ['an unknown field', { colour: 'red' }],
    ['a missing field', { provider: undefined }],
  ])('refuses %s', (_name, overrides) => {
    expect(modelPriceUpdateSchema.safeParse(aModelPrice(overrides)).success).toBe(false);
  });
});

describe('groupRatioUpdateSchema', () => {
  it.each([
    ['0.75', '0.75'],
    [1.25, '1.25'],
    ['1.000000', '1'],
    [0, '0'],
  ])('accepts %s as "%s"', (ratio, expected) => {
    expect(groupRatioUpdateSchema.parse({ ratio })).toEqual({ ratio: expected });
  });

  it.each(['-0.5', '0.1234567', '10000', 'x'])('refuses %s', (ratio) => {
    expect(groupRatioUpdateSchema.safeParse({ ratio }).success).toBe(false);
  });
});

describe('modelNameSchema', () => {
  it('accepts provider-style names', () => {
    for (const name of [
      'gpt-4o',
      'claude-sonnet-4-5',
      'deepseek-ai/DeepSeek-V3',
      'gemini-2.5-pro',
      'qwen:7b',
    ]) {
      expect(modelNameSchema.parse(name)).toBe(name);
    }
  });

  it('refuses empty, spaced or quoted names', () => {
    for (const name of ['', ' gpt', "gpt'4", 'a b', '-x']) {
      expect(modelNameSchema.safeParse(name).success).toBe(false);
    }
  });
});
