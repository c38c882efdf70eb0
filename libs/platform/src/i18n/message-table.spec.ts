import { fillPlaceholders, messageLookup, messageTableProblems, placeholdersOf } from './message-table';

const KEYS = ['greeting', 'farewell'] as const;
type Key = (typeof KEYS)[number];

describe('message tables', () => {
  const tables = {
    ru: { greeting: 'Привет, {name}', farewell: 'Пока' },
    en: { greeting: 'Hello, {name}', farewell: 'Bye' },
  };

  it('answers the text of the asked language with its placeholders filled in', () => {
    const message = messageLookup<Key>(tables);
    expect(message('greeting', 'en', { name: 'Ann' })).toBe('Hello, Ann');
    expect(message('greeting', 'ru', { name: 'Аня' })).toBe('Привет, Аня');
    expect(message('farewell', 'ru')).toBe('Пока');
  });

  it('leaves a placeholder without a value as it is, and fills numbers', () => {
    expect(fillPlaceholders('{a} of {b}', { a: 3 })).toBe('3 of {b}');
    expect(placeholdersOf('{b} {a} {b}')).toEqual(['a', 'b']);
  });

  it('finds no problem in tables that agree', () => {
    expect(messageTableProblems<Key>(tables, KEYS)).toEqual([]);
  });

  it('names a missing key, an unknown key, a blank text and differing placeholders', () => {
    const broken = {
      ru: { greeting: 'Привет, {name}', farewell: 'Пока', extra: 'Лишнее' },
      en: { greeting: 'Hello, {username}', farewell: ' ' },
    } as unknown as typeof tables;
    expect(messageTableProblems<Key>(broken, KEYS)).toEqual([
      'ru: extra is not a message key',
      'en: greeting has placeholders [username], ru has [name]',
      'en: blank text for farewell',
    ]);
    const missing = { ...tables, en: { greeting: 'Hello, {name}' } } as unknown as typeof tables;
    expect(messageTableProblems<Key>(missing, KEYS)).toEqual(['en: no text for farewell']);
  });
});
