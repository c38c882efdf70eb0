import { STORAGE_KEYS } from '../../lib/local-storage-keys';
import { normalizeCurrency, readDefaultCurrency, saveDefaultCurrency } from './currency';
import { displayCurrency } from './display-currency';
import {
  formatCost,
  formatMinorUnits,
  formatPrice,
  parseRate,
  quotaToMicroUnits,
  quotaToMinorUnits,
  usdPriceIn,
} from './money';

describe('default currency', () => {
  beforeEach(() => localStorage.clear());

  it.each([['RUB'], ['USD']])('keeps %s', (value) => expect(normalizeCurrency(value)).toBe(value));

  it.each([['EUR'], ['usd'], [''], [null], [42]])('reverts %p to RUB', (value) => {
    expect(normalizeCurrency(value)).toBe('RUB');
  });

  it('reads RUB when nothing or something foreign is stored', () => {
    expect(readDefaultCurrency()).toBe('RUB');
    localStorage.setItem(STORAGE_KEYS.defaultCurrency, 'GBP');
    expect(readDefaultCurrency()).toBe('RUB');
  });

  it('stores the choice', () => {
    saveDefaultCurrency('USD');
    expect(readDefaultCurrency()).toBe('USD');
  });
});

describe('money from quota', () => {
  const rate = parseRate('92.5');

  it('turns 500 000 quota units into one dollar exactly', () => {
    expect(quotaToMinorUnits(500_000, 'USD', null)).toBe(100n);
    expect(quotaToMinorUnits(1, 'USD', null)).toBe(0n);
    expect(quotaToMinorUnits(2_500, 'USD', null)).toBe(1n); // half a cent rounds up
  });

  it('turns quota into rubles at the rate', () => {
    expect(quotaToMinorUnits(500_000, 'RUB', rate)).toBe(9250n);
    expect(quotaToMinorUnits(1_000_000, 'RUB', parseRate('80.123456'))).toBe(16025n);
  });

  it('cannot show rubles without a rate', () => {
    expect(quotaToMinorUnits(500_000, 'RUB', null)).toBeNull();
  });

  it('falls back to dollars while the rate is unavailable, and says so', () => {
    expect(displayCurrency('RUB', null)).toEqual({ currency: 'USD', fellBack: true });
    expect(displayCurrency('RUB', rate)).toEqual({ currency: 'RUB', fellBack: false });
    expect(displayCurrency('USD', null)).toEqual({ currency: 'USD', fellBack: false });
  });

  it('refuses rates that are not positive decimals', () => {
    expect(parseRate('abc')).toBeNull();
    expect(parseRate('0')).toBeNull();
    expect(parseRate('-5')).toBeNull();
    expect(parseRate(' 90.1 ')).toBe(90_100_000n);
  });

  it('converts a USD price per 1M tokens', () => {
    expect(usdPriceIn(2.5, 'USD', null)).toBe(2.5);
    expect(usdPriceIn(2.5, 'RUB', rate)).toBe(231.25);
    expect(usdPriceIn(0.075, 'RUB', rate)).toBe(6.9375);
    expect(usdPriceIn(2.5, 'RUB', null)).toBeNull();
  });

  it('formats in the interface language', () => {
    expect(formatMinorUnits(123456n, 'USD', 'en-US')).toBe('$1,234.56');
    expect(formatMinorUnits(9250n, 'RUB', 'ru-RU').replace(/\s/g, ' ')).toBe('92,50 ₽');
  });

  it("writes rubles with the ruble sign in English too, as the top-up form does (not 'RUB 2,200.00')", () => {
    expect(formatMinorUnits(220000n, 'RUB', 'en-US')).toBe('₽2,200.00');
    expect(formatPrice(0.135, 'RUB', 'en-US')).toBe('₽0.135');
    expect(formatPrice(0.135, 'USD', 'ru-RU').replace(/\s/g, ' ')).toBe('0,135 $');
  });

  it("shows a cheap request's cost to the millionth instead of as free (13 quota units at 92.5 ₽/$)", () => {
    const cost = (quota: number, currency: 'RUB' | 'USD', locale: string) =>
      formatCost(quotaToMicroUnits(quota, currency, parseRate('92.5')) ?? 0n, currency, locale).replace(
        /\s/g,
        ' ',
      );
    expect(cost(13, 'RUB', 'ru-RU')).toBe('0,002405 ₽');
    expect(cost(13, 'USD', 'en-US')).toBe('$0.000026');
    expect(cost(0, 'RUB', 'ru-RU')).toBe('0,00 ₽');
    // From one unit up, hundredths as everywhere else: 1,25 ₽, not 1,250000 ₽.
    expect(cost(6757, 'RUB', 'ru-RU')).toBe('1,25 ₽');
  });
});
