import { percentOf, rublesToQuota } from './ruble-quota';

describe('rublesToQuota', () => {
  it('buys 500 000 units for one dollar at the rate', () => {
    expect(rublesToQuota('90', '90')).toBe(500_000);
    expect(rublesToQuota('81.12', '81.12')).toBe(500_000);
    // 81.12 / 81.1234 × 500 000 = 499 979.044...
    expect(rublesToQuota('81.12', '81.1234')).toBe(499_979);
  });

  it('is exact where binary floating point is not, and rounds down to a whole unit', () => {
    // 1000 / 81.1234 × 500 000 = 6 163 449.756...
    expect(rublesToQuota('1000', '81.1234')).toBe(6_163_449);
    // 0.1 + 0.2 style amounts stay exact: 100.30 / 100.3 = 1 dollar.
    expect(rublesToQuota('100.3', '100.3')).toBe(500_000);
    expect(rublesToQuota('0.01', '95')).toBe(52);
  });

  it('refuses amounts with fractions of a kopeck and rates beyond six places', () => {
    expect(() => rublesToQuota('1.001', '90')).toThrow(RangeError);
    expect(() => rublesToQuota('1', '90.1234567')).toThrow(RangeError);
  });

  it('refuses a zero rate', () => {
    expect(() => rublesToQuota('1', '0')).toThrow('above zero');
  });
});

describe('percentOf', () => {
  it('takes a percentage, rounding down', () => {
    expect(percentOf(1_000_000, '10')).toBe(100_000);
    expect(percentOf(999, '12.5')).toBe(124);
    expect(percentOf(3, '33.3333')).toBe(0);
  });
});
