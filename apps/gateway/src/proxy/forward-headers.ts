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
  // The gateway names the request itself (a backend echoes the same id, or none).
  'x-request-id',
]);

/**
 * Headers sent to a backend service: the client's, minus hop-by-hop ones and anything claiming
 * an internal identity, plus what the gateway vouches for. A flat name/value list, undici's cheapest
 * form to take.
 */
export function requestHeadersForBackend(
  incoming: IncomingHttpHeaders,
  added: Record<string, string>,
): string[] {
  const out: string[] = [];
  for (const name in incoming) {
    if (DROPPED_REQUEST.has(name) || name in added) continue;
    const value = incoming[name];
    if (typeof value === 'string') out.push(name, value);
    else if (value !== undefined) for (const each of value) out.push(name, each);
  }
  for (const name in added) out.push(name, added[name]!);
  return out;
}

/**
 * Of DROPPED_REQUEST, what a request handed over in-process (HandOver) must not carry to the service,
 * which reads the client's own request: claims of an internal identity or of forwarding. The hop-by-hop
 * headers stay: they describe the client's connection, which that service then serves.
 */
const DROPPED_ON_HAND_OVER = [
  'proxy-authorization',
  'x-tollgate-identity',
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-forwarded-host',
] as const;

/**
 * The client's request headers made what a backend is sent (requestHeadersForBackend), in place, for a
 * request handed to a service in this process: identity and forwarding claims dropped, what the gateway
 * vouches for set.
 */
export function headersForHandOver(headers: IncomingHttpHeaders, added: Record<string, string>): void {
  for (const name of DROPPED_ON_HAND_OVER) if (headers[name] !== undefined) delete headers[name];
  for (const name in added) headers[name] = added[name];
}

/**
 * The backend's answer headers as the client gets them, from the raw name/value list undici read off
 * the wire: hop-by-hop ones dropped, the request id put first, names as the backend wrote them, each
 * value byte for byte (latin1 both ways: a value with bytes outside ASCII is neither re-encoded nor
 * refused by Node). A flat name/value list, as `writeHead` takes it.
 */
export function responseHeadersForClient(raw: readonly Buffer[], requestId: string): string[] {
  const out = ['x-request-id', requestId];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toString('latin1');
    // toLowerCase makes a new string even of a lowercase name; a regex test makes none.
    if (DROPPED_RESPONSE.has(HAS_UPPER_CASE.test(name) ? name.toLowerCase() : name)) continue;
    out.push(name, raw[i + 1]!.toString('latin1'));
  }
  return out;
}

const HAS_UPPER_CASE = /[A-Z]/;
const CONTENT_TYPE = /^content-type$/i;
const EVENT_STREAM = /^text\/event-stream/i;

/** Whether a flat name/value list (responseHeadersForClient's) declares an event stream. */
export function isEventStream(headers: readonly string[]): boolean {
  for (let i = 0; i + 1 < headers.length; i += 2) {
    if (headers[i]!.length === 12 && CONTENT_TYPE.test(headers[i]!))
      return EVENT_STREAM.test(headers[i + 1]!);
  }
  return false;
}
