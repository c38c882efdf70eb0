import { toScaledInteger } from '@tollgate/contracts';
import type { Currency } from './currency';

/** SPEC §9: quota units per US dollar. */
export const QUOTA_PER_USD = 500_000n;
/** Exchange rates and USD prices are carried with six fractional digits, like the server's NUMERIC. */
const RATE_DIGITS = 6;
const RATE_SCALE = 10n ** BigInt(RATE_DIGITS);

/** A decimal string ("92.5012") as an exact scaled integer; null for anything that is not one. */
export function parseRate(value: string | number): bigint | null {
  const text = typeof value === 'number' ? value.toFixed(RATE_DIGITS) : value.trim();
  try {
    const scaled = toScaledInteger(text, RATE_DIGITS);
    return scaled > 0n ? scaled : null;
  } catch {
    return null;
  }
}

/** numerator / denominator rounded half away from zero, in BigInt. */
function divideRounded(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const rounded = (n * 2n + d) / (d * 2n);
  return negative ? -rounded : rounded;
}

/** Quota units as `parts` parts of the currency unit, rounded half up; null for RUB without a rate. */
function quotaToParts(
  quota: number,
  parts: bigint,
  currency: Currency,
  usdRubScaled: bigint | null,
): bigint | null {
  const units = BigInt(Math.trunc(quota)) * parts;
  if (currency === 'USD') return divideRounded(units, QUOTA_PER_USD);
  if (usdRubScaled === null) return null;
  return divideRounded(units * usdRubScaled, QUOTA_PER_USD * RATE_SCALE);
}

/**
 * Quota units as hundredths (cents or kopecks) of the currency, exactly: USD = quota / 500 000,
 * RUB = USD × the rate. `usdRubScaled` is the rate × 10^6; it is needed only for RUB.
 */
export function quotaToMinorUnits(
  quota: number,
  currency: Currency,
  usdRubScaled: bigint | null,
): bigint | null {
  return quotaToParts(quota, 100n, currency, usdRubScaled);
}

/**
 * Quota units as millionths of the currency, exactly for USD (a unit is $0.000002) and rounded to
 * the millionth for RUB; null for RUB without a rate.
 */
export function quotaToMicroUnits(
  quota: number,
  currency: Currency,
  usdRubScaled: bigint | null,
): bigint | null {
  return quotaToParts(quota, 1_000_000n, currency, usdRubScaled);
}

/**
 * A request's cost: under one ruble or dollar to the millionth (0,00234 ₽), so a cheap request does
 * not read as free (0,00 ₽); from one up, to the hundredth.
 */
export function formatCost(micro: bigint, currency: Currency, locale: string): string {
  const amount = Number(micro) / 1_000_000;
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency,
    currencyDisplay: CURRENCY_DISPLAY,
    minimumFractionDigits: 2,
    maximumFractionDigits: Math.abs(amount) < 1 ? 6 : 2,
  }).format(amount);
}

/** A USD price per 1M tokens in the currency, as a decimal number with up to 4 fractional digits. */
export function usdPriceIn(priceUsd: number, currency: Currency, usdRubScaled: bigint | null): number | null {
  const price = parseRate(priceUsd) ?? (priceUsd === 0 ? 0n : null);
  if (price === null) return null;
  if (currency === 'USD') return Number(price) / Number(RATE_SCALE);
  if (usdRubScaled === null) return null;
  const tenThousandths = divideRounded(price * usdRubScaled * 10_000n, RATE_SCALE * RATE_SCALE);
  return Number(tenThousandths) / 10_000;
}

/**
 * The sign, not the code: English Intl writes rubles as 'RUB 2,200.00', where the top-up form and the
 * Russian interface say ₽ ('₽2,200.00', '2 200,00 ₽').
 */
const CURRENCY_DISPLAY = 'narrowSymbol';

export function formatMinorUnits(minor: bigint, currency: Currency, locale: string): string {
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency,
    currencyDisplay: CURRENCY_DISPLAY,
    minimumFractionDigits: 2,
  }).format(Number(minor) / 100);
}

export function formatPrice(value: number, currency: Currency, locale: string): string {
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency,
    currencyDisplay: CURRENCY_DISPLAY,
    minimumFractionDigits: 2,
    maximumFractionDigits: 4,
  }).format(value);
}
