import { tableDateTime } from './date-time';

/** The format's own output for a moment, read in UTC so the spec holds in any zone. */
function written(format: Intl.DateTimeFormat, moment: Date): string {
  const { locale, dateStyle, timeStyle } = format.resolvedOptions();
  return new Intl.DateTimeFormat(locale, { dateStyle, timeStyle, timeZone: 'UTC' }).format(moment);
}

describe('tableDateTime', () => {
  const moment = new Date(Date.UTC(2026, 10, 29, 4, 31, 5));

  it('writes the day first, in digits, in Russian', () => {
    expect(written(tableDateTime('ru'), moment)).toBe('29.11.2026, 04:31');
    expect(written(tableDateTime('ru', { withSeconds: true }), moment)).toBe('29.11.2026, 04:31:05');
  });

  it('names the month in English, so day and month cannot be read the wrong way round', () => {
    expect(written(tableDateTime('en'), moment)).toBe('Nov 29, 2026, 4:31 AM');
    expect(written(tableDateTime('en', { withSeconds: true }), moment)).toBe('Nov 29, 2026, 4:31:05 AM');
  });
});
