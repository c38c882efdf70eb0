import { QUOTA_PER_USD, toScaledInteger } from '@tollgate/contracts';

/** Rubles carry kopecks; rates carry up to six decimal places (the bank gives four). */
const RUBLE_DIGITS = 2;
const RATE_DIGITS = 6;

/**
 * Quota units bought by `rubles` at `usdRub` rubles per dollar: rubles / rate × 500 000, in exact
 * integer arithmetic on scaled decimals, rounded down to a whole unit (at most one unit, 1/500 000
 * of a dollar, in the platform's favour).
 */
export function rublesToQuota(rubles: string, usdRub: string): number {
  const kopecks = toScaledInteger(rubles, RUBLE_DIGITS);
  const rate = toScaledInteger(usdRub, RATE_DIGITS);
  if (rate === 0n) throw new RangeError('the exchange rate must be above zero');
  // rubles = kopecks / 10^2 and rate = scaledRate / 10^6, so quota = kopecks × 10^4 × 500 000 / scaledRate.
  const quota = (kopecks * 10n ** BigInt(RATE_DIGITS - RUBLE_DIGITS) * BigInt(QUOTA_PER_USD)) / rate;
  if (quota > BigInt(Number.MAX_SAFE_INTEGER))
    throw new RangeError(`${rubles} RUB is beyond the quota range`);
  return Number(quota);
}

/** `quota` × `percent` / 100, rounded down; `percent` is a decimal string with up to four places. */
export function percentOf(quota: number, percent: string): number {
  return Number((BigInt(quota) * toScaledInteger(percent, 4)) / 1_000_000n);
}
