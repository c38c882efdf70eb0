import { ErrorCode, type BillingPrice } from '@tollgate/contracts';
import { aPriceWithCacheWrites, aUsageWithCacheWrites } from '@tollgate/testing';
import { RelayError } from '../errors/relay-error';
import { actualQuota, estimateQuota, PriceBook, promptWithinContext } from './price-book';

const entries = new Map<string, BillingPrice>([
  [
    'model:gpt-4o-mini',
    {
      v: 1,
      kind: 'model',
      model: 'gpt-4o-mini',
      provider: 'openai',
      input_price: '0.15',
      output_price: '0.6',
      cached_input_price: '0.075',
      context_window: 1000,
      updated_at: 0,
    },
  ],
  ['group:vip', { v: 1, kind: 'group_ratio', group: 'vip', ratio: '0.5', updated_at: 0 }],
]);
const book = new PriceBook({ get: (key) => entries.get(key) });

describe('PriceBook', () => {
  it('quotes a model with the group ratio, or list price for a group without one', () => {
    expect(book.quote('gpt-4o-mini', 'vip').price).toEqual({
      input: '0.15',
      output: '0.6',
      cached_input: '0.075',
      group_ratio: '0.5',
    });
    expect(book.quote('gpt-4o-mini', 'default').price.group_ratio).toBe('1');
  });

  it('keeps one quote per price entry and ratio, and quotes a republished price anew', () => {
    const prices = new Map(entries);
    const live = new PriceBook({ get: (key) => prices.get(key) });
    const first = live.quote('gpt-4o-mini', 'vip');
    expect(live.quote('gpt-4o-mini', 'vip')).toBe(first);
    expect(live.quote('gpt-4o-mini', 'default')).not.toBe(first);
    const usage = { prompt_tokens: 1000, completion_tokens: 1000, cached_tokens: 0 };
    expect(actualQuota(first, usage)).toBe(188); // (150 + 600) µ$ × 0.5 = 187.5 → 188

    prices.set('model:gpt-4o-mini', {
      ...prices.get('model:gpt-4o-mini')!,
      output_price: '1.2',
    } as BillingPrice);
    expect(actualQuota(live.quote('gpt-4o-mini', 'vip'), usage)).toBe(338); // (150 + 1200) × 0.5 = 337.5
    prices.set('group:vip', { v: 1, kind: 'group_ratio', group: 'vip', ratio: '1', updated_at: 1 });
    expect(actualQuota(live.quote('gpt-4o-mini', 'vip'), usage)).toBe(675);
    expect(actualQuota(first, usage)).toBe(188);
  });

  it('charges a quote built by hand on its own prices', () => {
    const usage = { prompt_tokens: 2, completion_tokens: 0, cached_tokens: 0 };
    const quote = (input: string) => ({
      model: 'm',
      contextWindow: 0,
      price: { input, output: '0', cached_input: '0', group_ratio: '1' },
    });
    expect(actualQuota(quote('1'), usage)).toBe(1);
    expect(actualQuota(quote('3'), usage)).toBe(3);
  });

  it('refuses an unpriced model with a 404 that names it', () => {
    try {
      book.quote('no-such-model', 'default');
      throw new Error('expected a refusal');
    } catch (error) {
      expect(error).toBeInstanceOf(RelayError);
      expect(error).toMatchObject({ code: ErrorCode.ModelNotFound, status: 404 });
      expect((error as Error).message).toContain('no-such-model');
    }
    expect(book.has('gpt-4o-mini')).toBe(true);
    expect(book.has('no-such-model')).toBe(false);
  });
});

describe('estimateQuota', () => {
  const quote = book.quote('gpt-4o-mini', 'default');

  it('charges the prompt and the whole allowed answer', () => {
    // 100 × 0.15 + 200 × 0.6 = 135 USD per 1M → 135 / 1e6 × 500 000 = 67.5 → 68
    expect(
      estimateQuota(quote, { promptTokens: 100, maxOutputTokens: 200 }, { defaultMaxOutputTokens: 50 }),
    ).toBe(68);
  });

  it('assumes the default answer length when the client sets none', () => {
    expect(
      estimateQuota(
        quote,
        { promptTokens: 100, maxOutputTokens: undefined },
        { defaultMaxOutputTokens: 200 },
      ),
    ).toBe(68);
  });

  it('cuts the answer to the context window, whatever the prompt bound', () => {
    // window 1000: at most 1000 output; 900 × 0.15 + 1000 × 0.6 = 735 → 367.5 → 368
    expect(
      estimateQuota(quote, { promptTokens: 900, maxOutputTokens: 5000 }, { defaultMaxOutputTokens: 50 }),
    ).toBe(368);
  });

  it('covers a real prompt shorter than its bound that leaves room for a longer answer', () => {
    const reserved = estimateQuota(
      quote,
      { promptTokens: 900, maxOutputTokens: 5000 },
      { defaultMaxOutputTokens: 50 },
    );
    const worstServed = actualQuota(quote, { prompt_tokens: 100, completion_tokens: 900, cached_tokens: 0 });
    expect(reserved).toBeGreaterThanOrEqual(worstServed);
  });

  it('cuts each of several answers to the context window, not their sum', () => {
    // n = 3 answers of up to 5000, window 1000: each answer at most 1000, so 3000 output in all;
    // 900 × 0.15 + 3000 × 0.6 = 1935 → 967.5 → 968 (one window for all three would be 368)
    expect(
      estimateQuota(
        quote,
        { promptTokens: 900, maxOutputTokens: 5000, answers: 3 },
        { defaultMaxOutputTokens: 50 },
      ),
    ).toBe(968);
    const worstServed = actualQuota(quote, {
      prompt_tokens: 100,
      completion_tokens: 3 * 900,
      cached_tokens: 0,
    });
    expect(
      estimateQuota(
        quote,
        { promptTokens: 900, maxOutputTokens: 5000, answers: 3 },
        { defaultMaxOutputTokens: 50 },
      ),
    ).toBeGreaterThanOrEqual(worstServed);
  });
});

describe('promptWithinContext', () => {
  it('caps a prompt bound at the context window, and leaves it when the window is unknown', () => {
    const quote = book.quote('gpt-4o-mini', 'default');
    expect(promptWithinContext(quote, 5000)).toBe(1000);
    expect(promptWithinContext(quote, 10)).toBe(10);
    expect(promptWithinContext({ ...quote, contextWindow: 0 }, 5000)).toBe(5000);
  });
});

describe('actualQuota', () => {
  it('bills cached tokens at the cached price and caps cached at the prompt', () => {
    const quote = book.quote('gpt-4o-mini', 'default');
    expect(actualQuota(quote, { prompt_tokens: 100, completion_tokens: 0, cached_tokens: 100 })).toBe(
      actualQuota(quote, { prompt_tokens: 100, completion_tokens: 0, cached_tokens: 500 }),
    );
  });
});

describe('cache-write prices', () => {
  const claude = aPriceWithCacheWrites();
  const priced = new PriceBook({
    get: (key) => (key === 'model:claude-sonnet-4-5' ? claude : entries.get(key)),
  });
  const writing = aUsageWithCacheWrites();

  it('quotes the write prices billing publishes for a model', () => {
    expect(priced.quote('claude-sonnet-4-5', 'vip').price).toEqual({
      input: '3',
      output: '15',
      cached_input: '0.3',
      group_ratio: '0.5',
      cache_write: '3.75',
      cache_write_1h: '6',
    });
  });

  it('charges writes at their prices: 1000 × 3 + 2000 × 0.3 + 4000 × 3.75 + 3000 × 6 + 500 × 15 µ$', () => {
    expect(actualQuota(priced.quote('claude-sonnet-4-5', 'default'), writing)).toBe(22_050);
  });

  it('charges writes at the input price on a model published without write prices', () => {
    const { cache_write_price: _five, cache_write_1h_price: _hour, ...unpriced } = claude;
    const book = new PriceBook({ get: () => unpriced as BillingPrice });
    expect(book.quote('claude-sonnet-4-5', 'default').price).not.toHaveProperty('cache_write');
    expect(actualQuota(book.quote('claude-sonnet-4-5', 'default'), writing)).toBe(16_050);
  });

  it('caps writes a confused upstream reports beyond the prompt instead of refusing the charge', () => {
    const quote = priced.quote('claude-sonnet-4-5', 'default');
    const overstated = {
      ...writing,
      cached_tokens: 2000,
      cache_write_tokens: 9000,
      cache_write_1h_tokens: 9500,
    };
    expect(actualQuota(quote, overstated)).toBe(
      actualQuota(quote, { ...writing, cache_write_tokens: 8000, cache_write_1h_tokens: 8000 }),
    );
  });
});

describe('PriceBook.rubPerUsd', () => {
  it('reads the rate billing publishes, and nothing before it has', () => {
    const rate: BillingPrice = { v: 1, kind: 'exchange_rate', pair: 'USD_RUB', rate: '92.5', updated_at: 1 };
    expect(new PriceBook({ get: () => undefined }).rubPerUsd()).toBeUndefined();
    expect(new PriceBook({ get: (key) => (key === 'rate:USD_RUB' ? rate : undefined) }).rubPerUsd()).toBe(
      '92.5',
    );
  });
});
