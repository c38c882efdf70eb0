import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const localesDir = join(__dirname, '..', 'locales');

function flattenKeys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, inner]) =>
    flattenKeys(inner, prefix ? `${prefix}.${key}` : key),
  );
}

function readNamespace(language: string, file: string): unknown {
  return JSON.parse(readFileSync(join(localesDir, language, file), 'utf8'));
}

describe('locale files', () => {
  const ruFiles = readdirSync(join(localesDir, 'ru')).sort();

  it('has the same namespaces in Russian and English', () => {
    expect(readdirSync(join(localesDir, 'en')).sort()).toEqual(ruFiles);
  });

  it.each(ruFiles)('%s has exactly the same keys in both languages', (file) => {
    const ru = flattenKeys(readNamespace('ru', file)).sort();
    const en = flattenKeys(readNamespace('en', file)).sort();
    expect(en).toEqual(ru);
  });

  it.each(ruFiles)('%s uses snake_case keys and no empty texts', (file) => {
    for (const language of ['ru', 'en']) {
      const ns = readNamespace(language, file) as Record<string, unknown>;
      for (const [key, text] of Object.entries(ns)) {
        expect(key).toMatch(/^[a-z][a-z0-9_]*$/);
        expect(typeof text === 'string' && text.trim().length > 0).toBe(true);
      }
    }
  });
});
