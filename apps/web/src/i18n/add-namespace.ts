import type { Language } from './language';
import { i18next } from './i18n';

/**
 * Adds a namespace that a lazily loaded page brings with it, in both languages, so switching
 * language never waits for a download. Adding it again (another page of the same feature) is a no-op.
 */
export function addNamespace(namespace: string, texts: Record<Language, object>): void {
  for (const [language, bundle] of Object.entries(texts)) {
    if (!i18next.hasResourceBundle(language, namespace)) {
      i18next.addResourceBundle(language, namespace, bundle);
    }
  }
}
