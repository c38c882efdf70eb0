/** SPEC §5/§9: a range must be under 31 days; the default starts 14 days back. */
export const MAX_RANGE_SECONDS = 31 * 86_400;
export const DEFAULT_RANGE_DAYS = 14;
/** SPEC §9: statistics days are Moscow days (UTC+3, no daylight saving). */
const MOSCOW_OFFSET_SECONDS = 3 * 3600;
const DAY_SECONDS = 86_400;

/** A calendar day as the date input writes it: 'YYYY-MM-DD'. */
export type IsoDay = string;

export interface DayRange {
  start: IsoDay;
  end: IsoDay;
}

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function utcMidnightSeconds(day: IsoDay): number {
  const match = ISO_DAY.exec(day);
  if (!match) throw new RangeError(`"${day}" is not a YYYY-MM-DD day`);
  return Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / 1000;
}

/** 00:00:00 Moscow time of the day, as epoch seconds. */
export function moscowDayStart(day: IsoDay): number {
  return utcMidnightSeconds(day) - MOSCOW_OFFSET_SECONDS;
}

/** 23:59:59 Moscow time of the day, as epoch seconds. */
export function moscowDayEnd(day: IsoDay): number {
  return moscowDayStart(day) + DAY_SECONDS - 1;
}

/** The Moscow calendar day an instant (epoch seconds) falls on. */
export function moscowDayOf(epochSeconds: number): IsoDay {
  return new Date((epochSeconds + MOSCOW_OFFSET_SECONDS) * 1000).toISOString().slice(0, 10);
}

/** Today as a Moscow day (SPEC §9: statistics days are Moscow's), wherever the browser is. */
export function moscowToday(nowMs: number = Date.now()): IsoDay {
  return moscowDayOf(Math.floor(nowMs / 1000));
}

export function addDays(day: IsoDay, days: number): IsoDay {
  return new Date((utcMidnightSeconds(day) + days * DAY_SECONDS) * 1000).toISOString().slice(0, 10);
}

/** The last 14 Moscow days, today (Moscow's, as the statistics count days) included. */
export function defaultRange(today: Date = new Date()): DayRange {
  const end = moscowToday(today.getTime());
  return { start: addDays(end, -(DEFAULT_RANGE_DAYS - 1)), end };
}

export type RangeProblem = 'invalid' | 'reversed' | 'too_long';

/** Why a range cannot be asked for, or null when it can. */
export function rangeProblem({ start, end }: DayRange): RangeProblem | null {
  if (!ISO_DAY.test(start) || !ISO_DAY.test(end)) return 'invalid';
  if (start > end) return 'reversed';
  if (moscowDayEnd(end) - moscowDayStart(start) >= MAX_RANGE_SECONDS) return 'too_long';
  return null;
}

/** Every day of the range in order, for charts that show days without usage as zero. */
export function daysOf({ start, end }: DayRange): IsoDay[] {
  const days: IsoDay[] = [];
  for (let day = start; day <= end; day = addDays(day, 1)) days.push(day);
  return days;
}

/** The range as the API's epoch-second bounds (Moscow days). */
export function rangeSeconds(range: DayRange): { start: number; end: number } {
  return { start: moscowDayStart(range.start), end: moscowDayEnd(range.end) };
}
