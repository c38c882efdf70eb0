import { DEFAULT_RANGE_DAYS, addDays, moscowDayOf, type DayRange, type IsoDay } from '../activity/date-range';

/**
 * Operators read the business in Moscow days (SPEC §9), as the statistics and the overview's
 * windows are kept: "today" is Moscow's, wherever the browser is (in UTC, the three hours after
 * Moscow's midnight would otherwise fall outside every range).
 */
export function moscowToday(nowMs: number = Date.now()): IsoDay {
  return moscowDayOf(Math.floor(nowMs / 1000));
}

/** The last 14 Moscow days, today included. */
export function moscowDefaultRange(nowMs: number = Date.now()): DayRange {
  const end = moscowToday(nowMs);
  return { start: addDays(end, -(DEFAULT_RANGE_DAYS - 1)), end };
}
