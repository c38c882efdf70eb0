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
