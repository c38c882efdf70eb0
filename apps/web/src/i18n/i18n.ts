import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, detectLanguage, isLanguage, saveLanguage, type Language } from './language';
import { NAMESPACES, resources } from './resources';

/** Initialised synchronously with bundled resources, so the first render already has its texts. */
void i18next.use(initReactI18next).init({
  resources,
  lng: detectLanguage(),
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: ['ru', 'en'],
  ns: NAMESPACES,
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
  showSupportNotice: false,
});

document.documentElement.lang = i18next.language;

/** Switches the interface language and remembers the choice (SPEC §4). */
export async function changeLanguage(language: Language): Promise<void> {
  saveLanguage(language);
  await i18next.changeLanguage(language);
  document.documentElement.lang = language;
}

export function currentLanguage(): Language {
  return isLanguage(i18next.language) ? i18next.language : DEFAULT_LANGUAGE;
}

export { i18next };
