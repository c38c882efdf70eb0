import type { IncomingMessage, ServerResponse } from 'node:http';

const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
const ALLOWED_HEADERS =
  'authorization, content-type, new-api-user, x-api-key, x-goog-api-key, anthropic-version, anthropic-beta, openai-organization, openai-project, x-request-id, x-stainless-arch, x-stainless-lang, x-stainless-os, x-stainless-package-version, x-stainless-retry-count, x-stainless-runtime, x-stainless-runtime-version, x-stainless-timeout';

/** Cross-origin calls from the configured origins only; same-origin calls need no headers at all. */
export class CorsPolicy {
  private readonly origins: ReadonlySet<string>;

  constructor(commaSeparatedOrigins: string) {
    this.origins = new Set(
      commaSeparatedOrigins
        .split(',')
        .map((o) => o.trim().replace(/\/$/, ''))
        .filter(Boolean),
    );
  }

  /** Adds the CORS headers when the origin is allowed. True when this was a preflight, now answered. */
  apply(req: IncomingMessage, res: ServerResponse): boolean {
    const origin = req.headers.origin;
    if (!origin || this.origins.size === 0) return false;
    const allowed = this.origins.has(origin) || this.origins.has('*');
    res.setHeader('Vary', 'Origin');
    if (!allowed) return false;
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Allow-Credentials', 'true');
    res.setHeader('Access-Control-Expose-Headers', 'x-request-id, retry-after');
    if (req.method !== 'OPTIONS' || !req.headers['access-control-request-method']) return false;
    res.setHeader('Access-Control-Allow-Methods', ALLOWED_METHODS);
    res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
    res.setHeader('Access-Control-Max-Age', '600');
    res.statusCode = 204;
    res.end();
    return true;
  }
}
