import type { IncomingMessage, ServerResponse } from 'node:http';
import { isModelApiPath } from '../proxy/gateway-errors';

const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
const ALLOWED_HEADERS =
  'authorization, content-type, new-api-user, x-api-key, x-goog-api-key, anthropic-version, anthropic-beta, openai-organization, openai-project, x-request-id, x-stainless-arch, x-stainless-lang, x-stainless-os, x-stainless-package-version, x-stainless-retry-count, x-stainless-runtime, x-stainless-runtime-version, x-stainless-timeout';
/** What the SDKs read from an answer: the request id, when to retry, the rate limits, the timing. */
const EXPOSED_HEADERS =
  'x-request-id, request-id, retry-after, retry-after-ms, x-ratelimit-limit-requests, x-ratelimit-remaining-requests, x-ratelimit-reset-requests, x-ratelimit-limit-tokens, x-ratelimit-remaining-tokens, x-ratelimit-reset-tokens, openai-processing-ms';
const MAX_AGE_SECONDS = '600';
const USER_HEADER = /new-api-user/i;

/**
 * Who may call from a browser on another origin.
 *
 * /api (the dashboard, signed in by cookie): the configured origins only, with credentials.
 * /v1 and /v1beta (model calls, authenticated by the API key the caller sends): any origin, as OpenAI
 * and OpenRouter allow, but without credentials: `*` is never answered with
 * Access-Control-Allow-Credentials, so a page elsewhere cannot read an answer its cookies bought.
 * A configured origin keeps its credentialed answer there too (the web app's own calls).
 * Same-origin calls send no Origin and get no headers at all.
 */
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
  apply(req: IncomingMessage, res: ServerResponse, path: string): boolean {
    const origin = req.headers.origin;
    if (!origin) return false;
    const configured = this.origins.has(origin) || this.origins.has('*');
    if (configured) return this.allowWithCredentials(origin, req, res);
    if (isModelApiPath(path)) return this.allowWithKeyOnly(req, res);
    if (this.origins.size > 0) res.setHeader('Vary', 'Origin');
    return false;
  }

  private allowWithCredentials(origin: string, req: IncomingMessage, res: ServerResponse): boolean {
    res.setHeader('Vary', 'Origin');
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Allow-Credentials', 'true');
    res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    if (!isPreflight(req)) return false;
    return answerPreflight(res, ALLOWED_HEADERS);
  }

  /**
   * Any page may send a key; the browser sends no cookie with it (no Allow-Credentials) and the answer
   * varies with Origin only for configured origins, so `*` is cacheable by anyone.
   */
  private allowWithKeyOnly(req: IncomingMessage, res: ServerResponse): boolean {
    if (this.origins.size > 0) res.setHeader('Vary', 'Origin');
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    if (!isPreflight(req)) return false;
    // Whatever headers the SDK asks for (x-stainless-*, anthropic-dangerous-direct-browser-access,
    // x-goog-api-client, …): `*` alone would not cover Authorization. Not New-Api-User, which names a
    // signed-in user: only the dashboard's origins may send it (with the cookie it goes with).
    const asked = req.headers['access-control-request-headers'];
    return answerPreflight(
      res,
      asked === undefined || asked === '' ? ALLOWED_HEADERS : withoutUserHeader(asked),
    );
  }
}

function withoutUserHeader(headers: string): string {
  if (!USER_HEADER.test(headers)) return headers;
  return headers
    .split(',')
    .map((header) => header.trim())
    .filter((header) => header !== '' && header.toLowerCase() !== 'new-api-user')
    .join(', ');
}

function isPreflight(req: IncomingMessage): boolean {
  return req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
}

function answerPreflight(res: ServerResponse, allowedHeaders: string): true {
  res.setHeader('Access-Control-Allow-Methods', ALLOWED_METHODS);
  res.setHeader('Access-Control-Allow-Headers', allowedHeaders);
  res.setHeader('Access-Control-Max-Age', MAX_AGE_SECONDS);
  res.statusCode = 204;
  res.end();
  return true;
}
