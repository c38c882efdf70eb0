import { intlLocale } from './language';

/**
 * A moment in a table row (logs, payments, audit): '29.11.2026, 04:31' in Russian and 'Nov 29, 2026,
 * 4:31 AM' in English, where the short form ('11/29/26') reads day and month the other way round for
 * most of the world.
 */
export function tableDateTime(language: string, { withSeconds = false } = {}): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(intlLocale(language), {
    dateStyle: language === 'en' ? 'medium' : 'short',
    timeStyle: withSeconds ? 'medium' : 'short',
  });
}
