import { existsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import send from 'send';

/**
 * Serves the built web app: files under its dist folder (hashed assets cached for a year), and
 * index.html for any other path so the client-side router can take it.
 */
export class WebStatic {
  private readonly indexPath: string;

  constructor(private readonly root: string) {
    this.indexPath = join(root, 'index.html');
  }

  available(): boolean {
    return existsSync(this.indexPath);
  }

  serve(req: IncomingMessage, res: ServerResponse, path: string): void {
    const file = this.resolve(path);
    const immutable = file !== 'index.html' && path.startsWith('/assets/');
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

  /** A path naming an existing file is served as is; anything else is the app's index. */
  private resolve(path: string): string {
    const clean = decodeSafe(path.split('?')[0] ?? '/');
    if (clean !== '/' && !clean.includes('\0')) {
      const full = join(this.root, clean);
      if (full.startsWith(this.root) && existsSync(full) && statSync(full).isFile()) return clean;
    }
    return 'index.html';
  }
}

function decodeSafe(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return '/';
  }
}
