import { localeFromAcceptLanguage } from './locale';

describe('localeFromAcceptLanguage', () => {
  it.each([
    [undefined, 'ru'],
    ['', 'ru'],
    ['de-DE,fr;q=0.8', 'ru'],
    ['en', 'en'],
    ['en-US,en;q=0.9', 'en'],
    ['ru-RU,ru;q=0.9,en;q=0.8', 'ru'],
    ['de,en;q=0.5,ru;q=0.7', 'ru'],
    ['de,ru;q=0.5,en;q=0.7', 'en'],
    ['EN-gb', 'en'],
    ['en;q=0, ru;q=0.1', 'ru'],
    ['en;q=0', 'ru'],
    ['en;q=abc', 'ru'],
  ] as const)('reads %p as %s', (header, locale) => {
    expect(localeFromAcceptLanguage(header)).toBe(locale);
  });
});
