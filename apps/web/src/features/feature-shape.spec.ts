import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Every feature folder has one shape (docs/web.md, "Where things are"): React components in
 * `components/` (route layouts in `layouts/`), the HTTP calls in `*-api.ts` without React, hooks in
 * `use-*.ts`, and plain modules with their specs beside them.
 */

const FEATURES = __dirname;
const FOLDERS = new Set(['components', 'layouts']);

const features = readdirSync(FEATURES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const rootFiles = (feature: string): string[] =>
  readdirSync(join(FEATURES, feature), { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);

const source = (feature: string, file: string): string => readFileSync(join(FEATURES, feature, file), 'utf8');

describe('feature folders', () => {
  it.each(features)('%s has no folders besides components/ and layouts/', (feature) => {
    const folders = readdirSync(join(FEATURES, feature), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.filter((name) => !FOLDERS.has(name))).toEqual([]);
  });

  it.each(features)('%s keeps its React components in components/ or layouts/', (feature) => {
    const components = rootFiles(feature).filter((name) => name.endsWith('.tsx') && !name.includes('.spec.'));
    expect(components).toEqual([]);
  });

  it.each(features)('%s has no React in its *-api.ts files', (feature) => {
    const withReact = rootFiles(feature)
      .filter((name) => name.endsWith('-api.ts'))
      .filter((name) => /from 'react'|\buse[A-Z]\w*\(/.test(source(feature, name)));
    expect(withReact).toEqual([]);
  });

  it.each(features)('%s calls the API only from its *-api.ts files', (feature) => {
    const callers = rootFiles(feature)
      .filter((name) => !name.endsWith('-api.ts') && !name.includes('.spec.'))
      .filter((name) => /import \{[^}]*\bapi\b[^}]*\} from '[./]*api\/client'/.test(source(feature, name)));
    expect(callers).toEqual([]);
  });
});
