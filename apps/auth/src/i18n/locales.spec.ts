import { AUTH_MESSAGE_KEYS } from '@tollgate/contracts';
import { MESSAGES } from './auth-messages';
import { LOCALES } from './locale';

const placeholders = (text: string): string[] => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort();

describe('auth locale files', () => {
  it.each(LOCALES)('%s has exactly the message keys of the contract', (locale) => {
    expect(Object.keys(MESSAGES[locale]).sort()).toEqual([...AUTH_MESSAGE_KEYS].sort());
  });

  it.each(AUTH_MESSAGE_KEYS)('%s has the same placeholders and a text in every language', (key) => {
    const [first, ...others] = LOCALES;
    for (const locale of LOCALES) expect(MESSAGES[locale][key]?.trim()).toBeTruthy();
    for (const locale of others) {
      expect({ locale, placeholders: placeholders(MESSAGES[locale][key]) }).toEqual({
        locale,
        placeholders: placeholders(MESSAGES[first][key]),
      });
    }
  });
});
