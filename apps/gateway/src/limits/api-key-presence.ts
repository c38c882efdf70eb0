import type { IncomingHttpHeaders } from 'node:http';

const KEY_PARAMETER = /[?&]key=[^&]/;

/**
 * Whether a model API call names an API key where some SDK puts one (`Authorization`, `x-api-key`,
 * `x-goog-api-key`, `?key=`), without reading it: relay checks the key, and with it the per-key and
 * per-user limits a paying client has (docs/limits.md). Presence is all the gateway needs to tell a
 * client's call from an anonymous one.
 */
export function carriesApiKey(headers: IncomingHttpHeaders, path: string): boolean {
  return (
    headers.authorization !== undefined ||
    headers['x-api-key'] !== undefined ||
    headers['x-goog-api-key'] !== undefined ||
    (path.includes('key=') && KEY_PARAMETER.test(path))
  );
}
