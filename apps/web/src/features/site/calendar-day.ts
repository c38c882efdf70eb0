import { intlLocale } from '../../i18n/language';

/**
 * A `YYYY-MM-DD` release day in the interface language ("22 ноября 2026 г.", "November 22, 2026").
 * The day is read and written in UTC so no time zone moves it to the day before.
 */
export function formatCalendarDay(day: string, language: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return new Intl.DateTimeFormat(intlLocale(language), { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}
