export const LOCALES = ['ru', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'ru';

/**
 * The caller's language from Accept-Language (RFC 9110 §12.5.4): the supported language with the
 * highest weight, Russian when none is acceptable or the header is absent.
 */
export function localeFromAcceptLanguage(header: string | undefined): Locale {
  if (!header) return DEFAULT_LOCALE;
  let best: { locale: Locale; weight: number } | undefined;
  for (const entry of header.slice(0, 512).split(',')) {
    const [range = '', ...params] = entry.trim().split(';');
    const primary = range.trim().toLowerCase().split('-')[0];
    const locale = LOCALES.find((l) => l === primary);
    if (!locale) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (!Number.isFinite(weight) || weight <= 0) continue;
    if (!best || weight > best.weight) best = { locale, weight };
  }
  return best?.locale ?? DEFAULT_LOCALE;
}

/** The caller's language from a request's headers (Accept-Language sent twice counts as absent). */
export function localeOfHeaders(headers: Readonly<Record<string, string | string[] | undefined>>): Locale {
  const header = headers['accept-language'];
  return localeFromAcceptLanguage(typeof header === 'string' ? header : undefined);
}
