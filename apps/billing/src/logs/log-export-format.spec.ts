import { isoWithOffset, knownTimeZone, quotaAsAmount } from './log-export-format';

describe('the log export’s formats', () => {
  it('writes a moment as ISO 8601 with the offset of the zone', () => {
    const moment = Date.UTC(2026, 10, 29, 4, 21, 5) / 1000;
    expect(isoWithOffset(moment, 'Europe/Moscow')).toBe('2026-11-29T07:21:05+03:00');
    expect(isoWithOffset(moment, 'UTC')).toBe('2026-11-29T04:21:05+00:00');
    expect(isoWithOffset(moment, 'America/New_York')).toBe('2026-11-28T23:21:05-05:00');
    expect(isoWithOffset(Date.UTC(2026, 10, 29, 23, 59, 59) / 1000, 'Asia/Kolkata')).toBe(
      '2026-11-30T05:29:59+05:30',
    );
  });

  it('falls back to Moscow time for a zone it does not know', () => {
    expect(knownTimeZone(undefined)).toBe('Europe/Moscow');
    expect(knownTimeZone('Mars/Olympus')).toBe('Europe/Moscow');
    expect(knownTimeZone('Asia/Yekaterinburg')).toBe('Asia/Yekaterinburg');
  });

  it('shows quota as the dashboard does: to the millionth below one, to the hundredth from one up', () => {
    // 500 000 quota = $1; at 92.5 ₽ per dollar.
    expect(quotaAsAmount(1234, 'USD', '92.5')).toBe('0.002468');
    expect(quotaAsAmount(1234, 'RUB', '92.5')).toBe('0.22829');
    expect(quotaAsAmount(2500, 'USD', '92.5')).toBe('0.005');
    expect(quotaAsAmount(250_000, 'USD', '92.5')).toBe('0.50');
    expect(quotaAsAmount(5_000_000, 'RUB', '92.5')).toBe('925.00');
    expect(quotaAsAmount(5_405_405, 'RUB', '92.5')).toBe('1000.00');
    expect(quotaAsAmount(-300, 'RUB', '92.5')).toBe('-0.0555');
    expect(quotaAsAmount(0, 'USD', '92.5')).toBe('0.00');
  });
});
