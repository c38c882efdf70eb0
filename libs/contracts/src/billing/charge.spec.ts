import fc from 'fast-check';
import {
  chargeQuota,
  chargeQuotaScaled,
  PRICE_DECIMAL_DIGITS,
  scalePriceSnapshot,
  type PriceSnapshot,
  type TokenUsage,
} from './charge';
import { toScaledInteger } from './decimal';

const usage = (prompt: number, completion: number, cached = 0): TokenUsage => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
  cached_tokens: cached,
});

const price = (input: string, output: string, cachedInput = input, groupRatio = '1'): PriceSnapshot => ({
  input,
  output,
  cached_input: cachedInput,
  group_ratio: groupRatio,
});

describe('chargeQuota', () => {
  it('charges nothing for zero usage', () => {
    expect(chargeQuota(usage(0, 0, 0), price('2.5', '10', '1.25'))).toBe(0);
  });

  it('charges nothing at zero prices or a zero ratio', () => {
    expect(chargeQuota(usage(1000, 1000), price('0', '0'))).toBe(0);
    expect(chargeQuota(usage(1000, 1000), price('2.5', '10', '1.25', '0'))).toBe(0);
  });

  it('charges prompt and completion at their list prices (gpt-4o: 1000 in, 500 out = $0.0075)', () => {
    expect(chargeQuota(usage(1000, 500), price('2.5', '10'))).toBe(3750);
  });

  it('bills cached tokens, which are part of prompt_tokens, once at the cached price', () => {
    // 600 uncached × 2.5 + 400 cached × 1.25 + 500 × 10 = 7000 µ$ = 3500 units
    expect(chargeQuota(usage(1000, 500, 400), price('2.5', '10', '1.25'))).toBe(3500);
  });

  it('charges a fully cached prompt at the cached price only', () => {
    expect(chargeQuota(usage(1_000_000, 0, 1_000_000), price('1.25', '10', '0.125'))).toBe(62_500);
  });

  it('does not round an exact charge up', () => {
    // 2 tokens at $1 per 1M = $0.000002 = exactly 1 unit
    expect(chargeQuota(usage(2, 0), price('1', '1'))).toBe(1);
    expect(chargeQuota(usage(1_000_000, 1_000_000), price('2', '8'))).toBe(5_000_000);
  });

  it('rounds any remainder up to a whole unit', () => {
    expect(chargeQuota(usage(3, 0), price('1', '1'))).toBe(2); // 1.5
    expect(chargeQuota(usage(0, 1), price('0', '0.02'))).toBe(1); // 0.01
  });

  it('charges at least one unit for a tiny price on one token', () => {
    expect(chargeQuota(usage(1, 0), price('0.000001', '0'))).toBe(1);
    expect(chargeQuota(usage(1, 0), price('0.000000000001', '0'))).toBe(1);
  });

  it('applies a discount ratio exactly (0.75)', () => {
    expect(chargeQuota(usage(4, 0), price('1', '1', '1', '0.75'))).toBe(2); // 2 × 0.75 = 1.5
    expect(chargeQuota(usage(1000, 500), price('2.5', '10', '2.5', '0.75'))).toBe(2813); // 2812.5
    expect(chargeQuota(usage(4000, 0), price('1', '1', '1', '0.75'))).toBe(1500);
  });

  it('applies a surcharge ratio exactly (1.25)', () => {
    expect(chargeQuota(usage(8, 0), price('1', '1', '1', '1.25'))).toBe(5);
    expect(chargeQuota(usage(1000, 500), price('2.5', '10', '2.5', '1.25'))).toBe(4688); // 4687.5
  });

  it('is exact where binary floating point is not (deepseek-chat: 200 tokens at $0.28)', () => {
    // Floats give 28.000000000000004, which would round up to 29.
    expect(Math.ceil(((200 * 0.28) / 1e6) * 500_000)).toBe(29);
    expect(chargeQuota(usage(200, 0), price('0.28', '0.42'))).toBe(28);
    expect(chargeQuota(usage(20_000, 0), price('0.28', '0.42', '0.028', '0.7'))).toBe(1960);
  });

  it('handles huge token counts exactly', () => {
    const trillion = 1_000_000_000_000;
    // $150 per 1M on 1e12 tokens = $150 000 000 = 7.5e13 units
    expect(chargeQuota(usage(trillion, 0), price('150', '600'))).toBe(75_000_000_000_000);
    expect(chargeQuota(usage(trillion, trillion, trillion), price('15', '75', '1.5'))).toBe(
      (1.5 + 75) * 500_000 * 1_000_000,
    );
  });

  it('refuses a charge beyond the largest safe integer instead of losing precision', () => {
    const most = Number.MAX_SAFE_INTEGER;
    expect(() => chargeQuota(usage(0, most), price('0', '9999999'))).toThrow(RangeError);
  });

  it('refuses cached tokens that exceed the prompt they are part of', () => {
    expect(() => chargeQuota(usage(10, 0, 11), price('1', '1'))).toThrow(/cannot exceed/);
  });

  it.each([
    ['negative', usage(-1, 0)],
    ['fractional', usage(0, 1.5)],
    ['not a number', usage(Number.NaN, 0)],
    ['unsafe', usage(Number.MAX_SAFE_INTEGER + 1, 0)],
  ])('refuses %s token counts', (_name, bad) => {
    expect(() => chargeQuota(bad, price('1', '1'))).toThrow(RangeError);
  });

  it.each(['-1', '1e-6', 'abc', '', '.5', '1.', '0.0000000000001'])(
    'refuses the malformed price "%s"',
    (bad) => {
      expect(() => chargeQuota(usage(1, 1), price(bad, '1'))).toThrow(RangeError);
      expect(() => chargeQuota(usage(1, 1), price('1', '1', '1', bad))).toThrow(RangeError);
    },
  );
});

describe('chargeQuotaScaled', () => {
  /** The charge as written before prices were scaled once: every price parsed inside the formula. */
  const parsedPerCall = (u: TokenUsage, p: PriceSnapshot): number => {
    const scaled = (value: string) => toScaledInteger(value, PRICE_DECIMAL_DIGITS);
    const prompt = BigInt(u.prompt_tokens);
    const cached = BigInt(u.cached_tokens);
    const perMillion =
      (prompt - cached) * scaled(p.input) +
      BigInt(u.completion_tokens) * scaled(p.output) +
      cached * scaled(p.cached_input);
    const denominator = 1_000_000n * 10n ** 24n;
    return Number((perMillion * 500_000n * scaled(p.group_ratio) + denominator - 1n) / denominator);
  };

  const decimal = (maxWhole: number) =>
    fc
      .tuple(
        fc.nat(maxWhole),
        fc.integer({ min: 0, max: PRICE_DECIMAL_DIGITS }),
        fc.bigInt(0n, 10n ** 12n - 1n),
      )
      .map(([whole, digits, fraction]) =>
        digits === 0
          ? String(whole)
          : `${whole}.${String(fraction % 10n ** BigInt(digits)).padStart(digits, '0')}`,
      );
  const prices = fc.record({
    input: decimal(200),
    output: decimal(600),
    cached_input: decimal(200),
    group_ratio: decimal(3),
  });
  const usages = fc
    .tuple(fc.nat(2_000_000), fc.nat(2_000_000), fc.nat(2_000_000))
    .map(([prompt, completion, cached]) => usage(prompt, completion, Math.min(cached, prompt)));

  it('charges exactly what the decimal prices charge, for any prices and usage', () => {
    fc.assert(
      fc.property(usages, prices, (u, p) => {
        const charge = chargeQuotaScaled(u, scalePriceSnapshot(p));
        expect(charge).toBe(chargeQuota(u, p));
        expect(charge).toBe(parsedPerCall(u, p));
      }),
      { numRuns: 2_000 },
    );
  });

  it('charges one scaled price for many usages as it charges each alone', () => {
    const scaled = scalePriceSnapshot(price('2.5', '10', '1.25', '0.75'));
    fc.assert(
      fc.property(usages, (u) => {
        expect(chargeQuotaScaled(u, scaled)).toBe(chargeQuota(u, price('2.5', '10', '1.25', '0.75')));
      }),
    );
  });

  it('scales each price and the ratio by 10^12', () => {
    expect(scalePriceSnapshot(price('2.5', '0.000000000001', '0', '1'))).toEqual({
      input: 2_500_000_000_000n,
      output: 1n,
      cached_input: 0n,
      group_ratio: 1_000_000_000_000n,
      cache_write: 2_500_000_000_000n,
      cache_write_1h: 2_500_000_000_000n,
    });
  });

  it.each(['-1', '1e-6', '', '0.0000000000001'])('refuses to scale the malformed price "%s"', (bad) => {
    expect(() => scalePriceSnapshot(price(bad, '1'))).toThrow(RangeError);
    expect(() => scalePriceSnapshot(price('1', '1', '1', bad))).toThrow(RangeError);
  });

  it('refuses malformed usage on scaled prices as well', () => {
    const scaled = scalePriceSnapshot(price('1', '1'));
    expect(() => chargeQuotaScaled(usage(10, 0, 11), scaled)).toThrow(/cannot exceed/);
    expect(() => chargeQuotaScaled(usage(-1, 0), scaled)).toThrow(RangeError);
    expect(() =>
      chargeQuotaScaled(usage(0, Number.MAX_SAFE_INTEGER), scalePriceSnapshot(price('0', '9999999'))),
    ).toThrow(RangeError);
  });
});

describe('chargeQuota on prompt-cache writes', () => {
  /** Claude Sonnet 4.5's list prices: writes at 1.25× input for 5 minutes, 2× for an hour. */
  const sonnet: PriceSnapshot = {
    ...price('3', '15', '0.3'),
    cache_write: '3.75',
    cache_write_1h: '6',
  };
  const withWrites = (u: TokenUsage, writes: number, writesFor1h = 0): TokenUsage => ({
    ...u,
    cache_write_tokens: writes,
    cache_write_1h_tokens: writesFor1h,
  });

  it('bills each prompt token once: reads, 5-minute writes, 1-hour writes and the rest at their prices', () => {
    // 1000 × 3 + 2000 × 0.3 + 4000 × 3.75 + 3000 × 6 + 500 × 15 = 44 100 µ$ = 22 050 units
    // (at the input price the writes came to 32 100 µ$ = 16 050 units)
    expect(chargeQuota(withWrites(usage(10_000, 500, 2000), 7000, 3000), sonnet)).toBe(22_050);
  });

  it('charges writes at the input price on a model without a write price (as before writes were priced)', () => {
    expect(chargeQuota(withWrites(usage(10_000, 500, 2000), 7000, 3000), price('3', '15', '0.3'))).toBe(
      16_050,
    );
  });

  it('charges 1-hour writes at the 5-minute write price when the model has no 1-hour price', () => {
    // 1000 × 3 + 9000 × 3.75 = 36 750 µ$ = 18 375 units
    const fiveMinutesOnly = { ...price('3', '15', '0.3'), cache_write: '3.75' };
    expect(chargeQuota(withWrites(usage(10_000, 0), 9000, 9000), fiveMinutesOnly)).toBe(18_375);
  });

  it('applies the group ratio to the writes as to the rest', () => {
    const discounted = { ...sonnet, group_ratio: '0.5' };
    expect(chargeQuota(withWrites(usage(1_000_000, 0), 1_000_000), discounted)).toBe(937_500);
  });

  it('refuses writes that with the reads exceed the prompt they are part of', () => {
    expect(() => chargeQuota(withWrites(usage(10, 0, 5), 6), sonnet)).toThrow(/cannot exceed/);
    expect(() => chargeQuota(withWrites(usage(10, 0), 11), price('1', '1'))).toThrow(/cannot exceed/);
  });

  it('refuses 1-hour writes beyond all writes, and malformed write counts', () => {
    expect(() => chargeQuota(withWrites(usage(10, 0), 2, 3), sonnet)).toThrow(/cannot exceed/);
    expect(() => chargeQuota({ ...usage(10, 0), cache_write_1h_tokens: 1 }, sonnet)).toThrow(/cannot exceed/);
    expect(() => chargeQuota(withWrites(usage(10, 0), -1), sonnet)).toThrow(RangeError);
    expect(() => chargeQuota(withWrites(usage(10, 0), Number.NaN), sonnet)).toThrow(RangeError);
    expect(() => chargeQuota(withWrites(usage(10, 0), 1.5), sonnet)).toThrow(RangeError);
  });

  it('refuses a malformed write price', () => {
    expect(() => chargeQuota(usage(1, 0), { ...sonnet, cache_write: '-1' })).toThrow(RangeError);
    expect(() => chargeQuota(usage(1, 0), { ...sonnet, cache_write_1h: '1e-6' })).toThrow(RangeError);
  });

  /** The charge before writes were priced, as it was written then: writes are prompt tokens at the input price. */
  const beforeWritePrices = (u: TokenUsage, p: PriceSnapshot): number =>
    chargeQuota(
      {
        prompt_tokens: u.prompt_tokens,
        completion_tokens: u.completion_tokens,
        cached_tokens: u.cached_tokens,
      },
      { input: p.input, output: p.output, cached_input: p.cached_input, group_ratio: p.group_ratio },
    );

  const decimal = fc
    .tuple(fc.nat(200), fc.nat(999_999))
    .map(([whole, millionths]) => `${whole}.${String(millionths).padStart(6, '0')}`);
  const prices = fc.record({
    input: decimal,
    output: decimal,
    cached_input: decimal,
    group_ratio: fc.constantFrom('0', '0.75', '1', '1.25', '2.333333'),
    cache_write: decimal,
    cache_write_1h: decimal,
  });
  const usages = fc
    .tuple(fc.nat(2_000_000), fc.nat(2_000_000), fc.nat(2_000_000), fc.nat(2_000_000), fc.nat(2_000_000))
    .map(([prompt, completion, cachedSeed, writesSeed, hourSeed]) => {
      const cached = cachedSeed % (prompt + 1);
      const writes = writesSeed % (prompt - cached + 1);
      return withWrites(usage(prompt, completion, cached), writes, hourSeed % (writes + 1));
    });

  it('charges as before when the call wrote no cache, whatever the write prices', () => {
    fc.assert(
      fc.property(usages, prices, (u, p) => {
        const noWrites = withWrites(u, 0, 0);
        expect(chargeQuota(noWrites, p)).toBe(beforeWritePrices(noWrites, p));
        expect(
          chargeQuota({ ...noWrites, cache_write_tokens: undefined, cache_write_1h_tokens: undefined }, p),
        ).toBe(beforeWritePrices(noWrites, p));
      }),
      { numRuns: 1_000 },
    );
  });

  it('charges as before when the write prices are the input price, or not set', () => {
    fc.assert(
      fc.property(usages, prices, (u, p) => {
        const atInput = { ...p, cache_write: p.input, cache_write_1h: p.input };
        const unset = {
          input: p.input,
          output: p.output,
          cached_input: p.cached_input,
          group_ratio: p.group_ratio,
        };
        expect(chargeQuota(u, atInput)).toBe(beforeWritePrices(u, p));
        expect(chargeQuota(u, unset)).toBe(beforeWritePrices(u, p));
      }),
      { numRuns: 1_000 },
    );
  });

  it('charges exactly the sum of each part at its price, rounded up once', () => {
    const micro = (value: string) => toScaledInteger(value, 6);
    fc.assert(
      fc.property(usages, prices, (u, p) => {
        const writes = BigInt(u.cache_write_tokens ?? 0);
        const writesFor1h = BigInt(u.cache_write_1h_tokens ?? 0);
        const cached = BigInt(u.cached_tokens);
        const picoUsdPerMillion =
          (BigInt(u.prompt_tokens) - cached - writes) * micro(p.input) +
          cached * micro(p.cached_input) +
          (writes - writesFor1h) * micro(p.cache_write) +
          writesFor1h * micro(p.cache_write_1h) +
          BigInt(u.completion_tokens) * micro(p.output);
        const denominator = 1_000_000n * 10n ** 6n * 10n ** 6n;
        const expected =
          (picoUsdPerMillion * 500_000n * micro(p.group_ratio) + denominator - 1n) / denominator;
        expect(chargeQuota(u, p)).toBe(Number(expected));
        expect(chargeQuotaScaled(u, scalePriceSnapshot(p))).toBe(Number(expected));
      }),
      { numRuns: 2_000 },
    );
  });
});
