import { localeFromAcceptLanguage, messageTableProblems } from '@tollgate/platform';
import { ADMIN_MESSAGE_KEYS, MESSAGES, message } from './messages';

describe('admin locale files', () => {
  it('have every message key and no other, each with a text and the same placeholders', () => {
    expect(messageTableProblems(MESSAGES, ADMIN_MESSAGE_KEYS)).toEqual([]);
  });

  it('answer in Russian without Accept-Language and in English for an English caller', () => {
    expect(message('version_exists', localeFromAcceptLanguage(undefined))).toBe(
      'version: такая версия уже есть',
    );
    expect(message('version_exists', localeFromAcceptLanguage('en-US,en;q=0.9'))).toBe(
      'version: already exists',
    );
  });
});
