import type { IncomingHttpHeaders } from 'node:http';

/** Hop-by-hop headers (RFC 9110 §7.6.1) and ones only the gateway may set. */
const DROPPED_REQUEST = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  // The gateway's own server answered `100 Continue` already; undici refuses to send it on (a 502).
  'expect',
  'host',
  'x-tollgate-identity',
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-forwarded-host',
]);

const DROPPED_RESPONSE = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * Headers sent to a backend service: the client's, minus hop-by-hop ones and anything claiming
 * an internal identity, plus what the gateway vouches for.
 */
export function requestHeadersForBackend(
  incoming: IncomingHttpHeaders,
  added: Record<string, string>,
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const name in incoming) {
    if (DROPPED_REQUEST.has(name)) continue;
    const value = incoming[name];
    if (value !== undefined) out[name] = value;
  }
  for (const name in added) out[name] = added[name];
  return out;
}

/** Response headers passed back to the client (undici gives them lower-cased). */
export function responseHeadersForClient(
  upstream: Record<string, string | string[] | undefined>,
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const name in upstream) {
    if (DROPPED_RESPONSE.has(name)) continue;
    const value = upstream[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}
