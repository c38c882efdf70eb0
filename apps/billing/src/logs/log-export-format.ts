import { QUOTA_PER_USD, toScaledInteger, type LogExportCurrency } from '@tollgate/contracts';

/** SPEC §9's time zone, and the export's when the caller names none (or one this runtime lacks). */
export const DEFAULT_EXPORT_TIME_ZONE = 'Europe/Moscow';

export function knownTimeZone(zone: string | undefined): string {
  if (!zone) return DEFAULT_EXPORT_TIME_ZONE;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return DEFAULT_EXPORT_TIME_ZONE;
  }
}

/** A moment as ISO 8601 local time with its UTC offset in `timeZone`: `2026-11-29T07:21:05+03:00`. */
export function isoWithOffset(epochSeconds: number, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      timeZoneName: 'longOffset',
    })
      .formatToParts(new Date(epochSeconds * 1000))
      .map((part) => [part.type, part.value]),
  );
  // 'GMT+03:00', or plain 'GMT' at offset zero.
  const offset = parts['timeZoneName'] === 'GMT' ? '+00:00' : String(parts['timeZoneName']).slice(3);
  return `${parts['year']}-${parts['month']}-${parts['day']}T${parts['hour']}:${parts['minute']}:${parts['second']}${offset}`;
}

const MICRO = 1_000_000n;
const RATE_DIGITS = 6;

/** numerator / denominator rounded half away from zero. */
function divideRounded(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n;
  const n = negative ? -numerator : numerator;
  const rounded = (n * 2n + denominator) / (denominator * 2n);
  return negative ? -rounded : rounded;
}

/** Scaled `units` with `digits` fractional digits as a decimal: `-1234` at 2 → `-12.34`. */
function decimalText(units: bigint, digits: number): string {
  const negative = units < 0n;
  const text = (negative ? -units : units).toString().padStart(digits + 1, '0');
  return `${negative ? '-' : ''}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/**
 * Quota as the amount the dashboard shows for it (the web's quotaToMicroUnits and formatCost): USD =
 * quota / 500 000, RUB = that × `usdRub`; below one unit of the currency to the millionth (trailing
 * zeros beyond the hundredth dropped), from one up to the hundredth. A decimal text with a point.
 */
export function quotaAsAmount(quota: number, currency: LogExportCurrency, usdRub: string): string {
  const units = BigInt(Math.trunc(quota)) * MICRO;
  const micro =
    currency === 'USD'
      ? divideRounded(units, BigInt(QUOTA_PER_USD))
      : divideRounded(
          units * toScaledInteger(usdRub, RATE_DIGITS),
          BigInt(QUOTA_PER_USD) * 10n ** BigInt(RATE_DIGITS),
        );
  if (micro < MICRO && micro > -MICRO) return decimalText(micro, 6).replace(/(\.\d\d\d*?)0+$/, '$1');
  return decimalText(divideRounded(micro, 10_000n), 2);
}
