import { AppException } from '@tollgate/platform';
import { moscowDayBounds } from './moscow-day';
import { dayRangeOf } from './statistics.service';

describe('dayRangeOf', () => {
  const now = Date.parse('2026-11-26T22:30:00Z') / 1000; // already the 27th in Moscow

  it('defaults to the last seven Moscow days up to today', () => {
    expect(dayRangeOf({}, now)).toEqual({ firstDay: '2026-11-21', lastDay: '2026-11-27' });
  });

  it("takes the web's epoch-second bounds (00:00 and 23:59:59 Moscow time) as the days they fall on", () => {
    const range = {
      start_date: moscowDayBounds('2026-11-01').start,
      end_date: moscowDayBounds('2026-11-14').end,
    };
    expect(dayRangeOf(range, now)).toEqual({ firstDay: '2026-11-01', lastDay: '2026-11-14' });
  });

  it('refuses a reversed range, a range over a year and a day that does not exist', () => {
    expect(() => dayRangeOf({ start_date: '2026-11-02', end_date: '2026-11-01' }, now)).toThrow(AppException);
    expect(() => dayRangeOf({ start_date: '2025-01-01', end_date: '2026-11-01' }, now)).toThrow(AppException);
    expect(() => dayRangeOf({ start_date: '2026-02-30' }, now)).toThrow(AppException);
  });
});
