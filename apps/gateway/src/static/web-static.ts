import { existsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import send from 'send';

/** What `send` is given for any path that names no file of the app: the client-side router's entry. */
export const WEB_INDEX = '/index.html';

/**
 * The path to hand to `send` for a request URL: the canonical, encoded path of the file it names
 * inside `root`, else the app's index. Dot segments and encoded slashes are resolved before the
 * check, so nothing outside `root` is ever chosen.
 */
export function resolveWebPath(root: string, url: string, isFile: (absolutePath: string) => boolean): string {
  const pathname = url.split('?')[0] ?? '/';
  const decoded = decodeOrUndefined(pathname);
  if (decoded === undefined || decoded === '/' || decoded.includes('\0')) return WEB_INDEX;
  const full = join(root, decoded);
  const inside = relative(root, full);
  if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside))
    return WEB_INDEX;
  if (!isFile(full)) return WEB_INDEX;
  return `/${inside.split(sep).map(encodeURIComponent).join('/')}`;
}

/**
 * Serves the built web app: files under its dist folder (hashed assets cached for a year), and
 * index.html for any other path so the client-side router can take it.
 */
export class WebStatic {
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  available(): boolean {
    return existsSync(join(this.root, WEB_INDEX));
  }

  serve(req: IncomingMessage, res: ServerResponse, url: string): void {
    const file = resolveWebPath(this.root, url, isExistingFile);
    const immutable = file !== WEB_INDEX && file.startsWith('/assets/');
    send(req, file, {
      root: this.root,
      dotfiles: 'deny',
      index: false,
      maxAge: immutable ? '365d' : 0,
      immutable,
    })
      .on('headers', (response: ServerResponse) => {
        if (!immutable) response.setHeader('Cache-Control', 'no-cache');
      })
      .on('error', (err: { status?: number }) => {
        res.statusCode = err.status ?? 500;
        res.end();
      })
      .pipe(res);
  }
}

function isExistingFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function decodeOrUndefined(path: string): string | undefined {
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}
