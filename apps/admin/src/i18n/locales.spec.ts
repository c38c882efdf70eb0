import { SETTING_PROBLEM_KINDS } from '@tollgate/contracts';
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

  it('word every kind of settings problem, the setting named first', () => {
    const keys = new Set<string>(ADMIN_MESSAGE_KEYS);
    expect(SETTING_PROBLEM_KINDS.filter((kind) => !keys.has(`setting_${kind}`))).toEqual([]);
    expect(message('setting_above_max', 'ru', { key: 'LogRetentionDays', max: 36_500 })).toBe(
      'LogRetentionDays: не больше 36500',
    );
    expect(message('setting_above_max', 'en', { key: 'LogRetentionDays', max: 36_500 })).toBe(
      'LogRetentionDays: must be at most 36500',
    );
  });
});
