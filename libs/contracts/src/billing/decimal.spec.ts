import { normalizeDecimal, toScaledInteger } from './decimal';

describe('toScaledInteger', () => {
  it('scales whole and fractional decimals', () => {
    expect(toScaledInteger('2.5', 6)).toBe(2_500_000n);
    expect(toScaledInteger('0.000001', 6)).toBe(1n);
    expect(toScaledInteger('10', 2)).toBe(1000n);
    expect(toScaledInteger('0', 12)).toBe(0n);
  });

  it('keeps integers far beyond 2^53 exact', () => {
    expect(toScaledInteger('123456789012345.123456789012', 12)).toBe(123456789012345123456789012n);
  });

  it.each(['-1', '1e3', '1,5', ' 1', '1.', '.1', 'NaN', ''])('refuses "%s"', (bad) => {
    expect(() => toScaledInteger(bad, 6)).toThrow(RangeError);
  });

  it('refuses more fractional digits than the scale holds', () => {
    expect(() => toScaledInteger('0.0000001', 6)).toThrow(/more than 6 fractional digits/);
  });
});

describe('normalizeDecimal', () => {
  it.each([
    ['2.500000', '2.5'],
    ['1.000', '1'],
    ['007.10', '7.1'],
    ['0.0', '0'],
    ['0.000001', '0.000001'],
    ['15', '15'],
  ])('spells %s as %s', (input, expected) => {
    expect(normalizeDecimal(input)).toBe(expected);
  });

  it('refuses non-decimals', () => {
    expect(() => normalizeDecimal('-2')).toThrow(RangeError);
  });
});
