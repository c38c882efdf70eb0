import type { AuthMessageKey } from '@tollgate/contracts';
import type { Locale } from './locale';
import { en } from './locales/en';
import { ru } from './locales/ru';

/** One table per language, side by side in locales/ (locales.spec.ts checks they agree). */
export const MESSAGES: Readonly<Record<Locale, Readonly<Record<AuthMessageKey, string>>>> = { ru, en };

export type MessageParams = Readonly<Record<string, string | number>>;

/** The message in the caller's language, with `{name}` placeholders filled in. */
export function message(key: AuthMessageKey, locale: Locale, params: MessageParams = {}): string {
  return MESSAGES[locale][key].replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}
