import { DEFAULT_LOCALE, LOCALES, type Locale } from './locale';

/** One language's texts by message key; a `{name}` in a text is a placeholder. */
export type MessageTable<K extends string> = Readonly<Record<K, string>>;
/** Every supported language's table: a service's locales/ru.ts and en.ts side by side. */
export type MessageTables<K extends string> = Readonly<Record<Locale, MessageTable<K>>>;
export type MessageParams = Readonly<Record<string, string | number>>;
/** A message in the caller's language, placeholders filled in. */
export type MessageLookup<K extends string> = (key: K, locale: Locale, params?: MessageParams) => string;

const PLACEHOLDER = /\{(\w+)\}/g;

/** `text` with each `{name}` that `params` names replaced; others are left as they are. */
export function fillPlaceholders(text: string, params: MessageParams = {}): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** The placeholder names of a text, sorted, each once. */
export function placeholdersOf(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((match) => match[1]!))].sort();
}

/** The lookup of a service's message tables. */
export function messageLookup<K extends string>(tables: MessageTables<K>): MessageLookup<K> {
  return (key, locale, params) => fillPlaceholders(tables[locale][key], params);
}

/**
 * What is wrong with a service's tables, one line per problem, empty when they agree: a language
 * lacking one of `keys` or having a key not among them, a blank text, or a text whose placeholders
 * differ from the default language's. A service's locales.spec.ts expects it to be empty.
 */
export function messageTableProblems<K extends string>(
  tables: MessageTables<K>,
  keys: readonly K[],
): string[] {
  const problems: string[] = [];
  const known = new Set<string>(keys);
  const reference = tables[DEFAULT_LOCALE] as Partial<Record<string, string>>;
  for (const locale of LOCALES) {
    const table = (tables[locale] ?? {}) as Partial<Record<string, string>>;
    for (const key of keys) {
      const text = table[key];
      if (text === undefined) problems.push(`${locale}: no text for ${key}`);
      else if (text.trim() === '') problems.push(`${locale}: blank text for ${key}`);
      else if (reference[key] !== undefined) {
        const own = placeholdersOf(text).join(', ');
        const expected = placeholdersOf(reference[key]).join(', ');
        if (own !== expected) {
          problems.push(`${locale}: ${key} has placeholders [${own}], ${DEFAULT_LOCALE} has [${expected}]`);
        }
      }
    }
    for (const key of Object.keys(table)) {
      if (!known.has(key)) problems.push(`${locale}: ${key} is not a message key`);
    }
  }
  return problems;
}
