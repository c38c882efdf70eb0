import { dayOf, daysBefore, daysInRange, moscowDay, moscowDayBounds } from './moscow-day';

describe('Moscow days (UTC+3)', () => {
  it('puts 20:59:59Z and 21:00:00Z on different days', () => {
    expect(moscowDay(Date.parse('2026-11-26T20:59:59Z') / 1000)).toBe('2026-11-26');
    expect(moscowDay(Date.parse('2026-11-26T21:00:00Z') / 1000)).toBe('2026-11-27');
  });

  it('bounds a day by 00:00:00 and 23:59:59 Moscow time', () => {
    expect(moscowDayBounds('2026-11-27')).toEqual({
      start: Date.parse('2026-11-26T21:00:00Z') / 1000,
      end: Date.parse('2026-11-27T20:59:59Z') / 1000,
    });
  });

  it('reads a bound given as epoch seconds or as a date, and refuses days that do not exist', () => {
    expect(dayOf(moscowDayBounds('2026-01-01').end)).toBe('2026-01-01');
    expect(dayOf('2024-02-29')).toBe('2024-02-29');
    expect(() => dayOf('2026-02-31')).toThrow(RangeError);
  });

  it('counts days inclusively and steps back across months', () => {
    expect(daysInRange('2026-11-01', '2026-11-30')).toBe(30);
    expect(daysInRange('2026-11-02', '2026-11-01')).toBe(0);
    expect(daysBefore('2026-03-01', 1)).toBe('2026-02-28');
  });
});
