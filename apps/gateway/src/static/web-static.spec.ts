import { join } from 'node:path';
import { WEB_INDEX, resolveWebPath } from './web-static';

const ROOT = '/srv/tollgate/web';
const FILES = new Set([
  join(ROOT, 'index.html'),
  join(ROOT, 'favicon.ico'),
  join(ROOT, 'assets', 'app-3f9a.js'),
  join(ROOT, 'assets', 'font file.woff2'),
  '/srv/tollgate/package.json',
  '/srv/tollgate/web-private/secret.txt',
]);

describe('resolveWebPath', () => {
  const isFile = jest.fn((path: string) => FILES.has(path));
  const resolveUrl = (url: string) => resolveWebPath(ROOT, url, isFile);

  beforeEach(() => isFile.mockClear());

  it.each([
    ['/assets/app-3f9a.js', '/assets/app-3f9a.js'],
    ['/assets/app-3f9a.js?v=2', '/assets/app-3f9a.js'],
    ['/favicon.ico', '/favicon.ico'],
    ['/assets/font%20file.woff2', '/assets/font%20file.woff2'],
    ['/assets/./app-3f9a.js', '/assets/app-3f9a.js'],
  ])('serves the existing file %s as %s', (url, file) => {
    expect(resolveUrl(url)).toBe(file);
  });

  it.each(['/', '/?lang=ru', '/dashboard/tokens', '/dashboard/tokens?p=2', '/assets/missing.js', '/assets'])(
    'falls back to the app index for %s',
    (url) => {
      expect(resolveUrl(url)).toBe(WEB_INDEX);
    },
  );

  it.each([
    '/../package.json',
    '/%2e%2e/package.json',
    '/%2E%2E/package.json',
    '/assets/../../package.json',
    '/assets/%2e%2e/%2e%2e/package.json',
    '/..%2fpackage.json',
    '/..%5cpackage.json',
    '/../web-private/secret.txt',
    '/%2e%2e/web-private/secret.txt',
  ])('never leaves the root for %s', (url) => {
    expect(resolveUrl(url)).toBe(WEB_INDEX);
    for (const [asked] of isFile.mock.calls) expect(asked.startsWith(`${ROOT}/`)).toBe(true);
  });

  it.each(['/%E0%A4%A', '/assets/app-3f9a.js%00.png', '/assets%00/app-3f9a.js'])(
    'falls back to the index for the malformed %s',
    (url) => {
      expect(resolveUrl(url)).toBe(WEB_INDEX);
    },
  );
});
