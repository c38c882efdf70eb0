import { STORAGE_KEYS } from '../lib/local-storage-keys';

export const LANGUAGES = ['ru', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'ru';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** SPEC §4: the saved choice, else the browser's language when we have it, else Russian. */
export function detectLanguage(
  storage: Pick<Storage, 'getItem'> = localStorage,
  browserLanguages: readonly string[] = navigator.languages ?? [navigator.language],
): Language {
  const saved = storage.getItem(STORAGE_KEYS.language);
  if (isLanguage(saved)) return saved;
  for (const tag of browserLanguages) {
    const base = tag.toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return DEFAULT_LANGUAGE;
}

/** The Intl locale that formats numbers and dates in the interface's language, whatever the browser's. */
export function intlLocale(language: string): 'en-US' | 'ru-RU' {
  return language === 'en' ? 'en-US' : 'ru-RU';
}

export function saveLanguage(language: Language, storage: Pick<Storage, 'setItem'> = localStorage): void {
  storage.setItem(STORAGE_KEYS.language, language);
}
