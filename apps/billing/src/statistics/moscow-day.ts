import { MOSCOW_UTC_OFFSET_SECONDS } from '@tollgate/contracts';

const DAY_SECONDS = 24 * 60 * 60;

/** The Moscow calendar day (YYYY-MM-DD) of a moment given in epoch seconds. */
export function moscowDay(epochSeconds: number): string {
  return new Date((epochSeconds + MOSCOW_UTC_OFFSET_SECONDS) * 1000).toISOString().slice(0, 10);
}

/** A Moscow day's first and last second (00:00:00 and 23:59:59 Moscow time) as epoch seconds. */
export function moscowDayBounds(day: string): { start: number; end: number } {
  const start = Date.parse(`${day}T00:00:00Z`) / 1000 - MOSCOW_UTC_OFFSET_SECONDS;
  if (!Number.isFinite(start)) throw new RangeError(`not a calendar day: ${day}`);
  return { start, end: start + DAY_SECONDS - 1 };
}

/** A query bound (epoch seconds of any moment of the day, or YYYY-MM-DD) as the Moscow day. */
export function dayOf(bound: string | number): string {
  if (typeof bound === 'number') return moscowDay(bound);
  moscowDayBounds(bound);
  // Date.parse accepts 2026-02-31 as March 3rd; a day that does not round-trip does not exist.
  if (moscowDay(moscowDayBounds(bound).start) !== bound) throw new RangeError(`not a calendar day: ${bound}`);
  return bound;
}

/** Days from `first` to `last` inclusive (0 when last is before first). */
export function daysInRange(first: string, last: string): number {
  return Math.max(0, (moscowDayBounds(last).start - moscowDayBounds(first).start) / DAY_SECONDS + 1);
}

/** The Moscow day `count` days before `day`. */
export function daysBefore(day: string, count: number): string {
  return moscowDay(moscowDayBounds(day).start - count * DAY_SECONDS);
}
