import { daysOf, defaultRange, moscowDayEnd, moscowDayOf, moscowDayStart, rangeProblem } from './date-range';

describe('activity date range', () => {
  it('defaults to the last 14 days, today included', () => {
    expect(defaultRange(new Date(2025, 2, 20, 15, 0))).toEqual({ start: '2025-03-07', end: '2025-03-20' });
    expect(daysOf(defaultRange(new Date(2025, 2, 20)))).toHaveLength(14);
  });

  it("ends on Moscow's today, as the statistics count days, wherever the browser is", () => {
    // 22:30 UTC on 20 March is 01:30 on 21 March in Moscow: a UTC browser's day is still the 20th.
    expect(defaultRange(new Date(Date.UTC(2025, 2, 20, 22, 30)))).toEqual({
      start: '2025-03-08',
      end: '2025-03-21',
    });
  });

  it('crosses month ends', () => {
    expect(defaultRange(new Date(2025, 2, 5))).toEqual({ start: '2025-02-20', end: '2025-03-05' });
  });

  it('accepts 31 calendar days (under 31 days from 00:00 to 23:59:59) and refuses 32', () => {
    expect(rangeProblem({ start: '2025-01-01', end: '2025-01-31' })).toBeNull();
    expect(rangeProblem({ start: '2025-01-01', end: '2025-02-01' })).toBe('too_long');
  });

  it('refuses a reversed or malformed range', () => {
    expect(rangeProblem({ start: '2025-01-10', end: '2025-01-09' })).toBe('reversed');
    expect(rangeProblem({ start: '', end: '2025-01-09' })).toBe('invalid');
  });

  it('uses Moscow days (UTC+3) from 00:00 to 23:59:59 as epoch seconds', () => {
    expect(moscowDayStart('2025-01-02')).toBe(Date.UTC(2025, 0, 1, 21, 0, 0) / 1000);
    expect(moscowDayEnd('2025-01-02')).toBe(Date.UTC(2025, 0, 2, 20, 59, 59) / 1000);
    expect(moscowDayOf(Date.UTC(2025, 0, 1, 20, 59, 59) / 1000)).toBe('2025-01-01');
    expect(moscowDayOf(Date.UTC(2025, 0, 1, 21, 0, 0) / 1000)).toBe('2025-01-02');
  });
});
