import type { IncomingHttpHeaders } from 'node:http';
import { isEventStream, requestHeadersForBackend, responseHeadersForClient } from './forward-headers';

/** Headers as a flat name/value list in their order, a repeated one once per value. */
const flat = (headers: IncomingHttpHeaders) =>
  Object.entries(headers).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : [value!]).flatMap((each) => [name, each]),
  );

describe('requestHeadersForBackend', () => {
  const added = { 'x-request-id': 'req-1', 'x-forwarded-for': '198.51.100.7', 'x-forwarded-proto': 'https' };

  it('drops hop-by-hop headers and the host', () => {
    const incoming: IncomingHttpHeaders = {
      connection: 'keep-alive, x-secret-hop',
      'keep-alive': 'timeout=5',
      'proxy-connection': 'keep-alive',
      'proxy-authorization': 'Basic cHJveHk6cGFzcw==',
      te: 'trailers',
      trailer: 'x-checksum',
      'transfer-encoding': 'chunked',
      upgrade: 'websocket',
      expect: '100-continue',
      host: 'gateway.example',
    };

    expect(requestHeadersForBackend(incoming, {})).toEqual([]);
  });

  it('drops a caller’s claimed internal identity and forwarding headers, and sets the gateway’s own', () => {
    const incoming: IncomingHttpHeaders = {
      'x-tollgate-identity': 'forged.token',
      'x-forwarded-for': '6.6.6.6',
      'x-forwarded-proto': 'http',
      'x-forwarded-host': 'evil.example',
      'x-request-id': 'client-chosen',
    };

    expect(requestHeadersForBackend(incoming, added)).toEqual(flat(added));
  });

  it('keeps everything else as the client sent it, repeated headers included', () => {
    const incoming: IncomingHttpHeaders = {
      authorization: 'Bearer sk-abc',
      'content-type': 'application/json',
      'content-length': '17',
      'new-api-user': '7',
      'anthropic-version': '2023-06-01',
      cookie: 'session=s1',
      'x-stainless-lang': 'js',
      'set-cookie': ['a=1', 'b=2'],
    };

    expect(requestHeadersForBackend(incoming, added)).toEqual(flat({ ...incoming, ...added }));
  });
});

describe('requestHeadersForBackend as undici gets it', () => {
  it('sends a repeated header once per value, as a flat name/value list', () => {
    expect(
      requestHeadersForBackend({ 'x-many': ['a', 'b'], accept: '*/*' }, { 'x-request-id': 'r' }),
    ).toEqual(['x-many', 'a', 'x-many', 'b', 'accept', '*/*', 'x-request-id', 'r']);
  });
});

/** A raw header list as undici reads it off the wire: names and values as Buffers, in order. */
const raw = (...pairs: [string, string | Buffer][]) =>
  pairs.flatMap(([name, value]) => [
    Buffer.from(name, 'latin1'),
    Buffer.isBuffer(value) ? value : Buffer.from(value, 'latin1'),
  ]);

describe('responseHeadersForClient', () => {
  it('drops hop-by-hop headers and the backend’s request id, puts the gateway’s first and keeps the rest in order', () => {
    const upstream = raw(
      ['Connection', 'close'],
      ['keep-alive', 'timeout=5'],
      ['Transfer-Encoding', 'chunked'],
      ['trailer', 'x-checksum'],
      ['upgrade', 'h2c'],
      ['X-Request-Id', 'backend-id'],
      ['Content-Type', 'text/event-stream'],
      ['cache-control', 'no-cache'],
      ['set-cookie', 'session=s1; HttpOnly'],
      ['set-cookie', 'lang=ru'],
    );

    expect(responseHeadersForClient(upstream, 'req-1')).toEqual([
      'x-request-id',
      'req-1',
      'Content-Type',
      'text/event-stream',
      'cache-control',
      'no-cache',
      'set-cookie',
      'session=s1; HttpOnly',
      'set-cookie',
      'lang=ru',
    ]);
  });

  it('passes a value with bytes outside ASCII byte for byte (as latin1, which Node writes back unchanged)', () => {
    const utf8Name = Buffer.from('attachment; filename="отчёт.csv"', 'utf8');
    const headers = responseHeadersForClient(raw(['content-disposition', utf8Name]), 'req-1');

    expect(Buffer.from(headers[3]!, 'latin1').equals(utf8Name)).toBe(true);
  });
});

describe('isEventStream', () => {
  it('reads the content type whatever its case', () => {
    expect(isEventStream(['x-request-id', 'r', 'Content-Type', 'text/event-stream; charset=utf-8'])).toBe(
      true,
    );
    expect(isEventStream(['CONTENT-TYPE', 'Text/Event-Stream'])).toBe(true);
    expect(isEventStream(['content-type', 'application/json'])).toBe(false);
    expect(isEventStream(['content-types', 'text/event-stream'])).toBe(false);
    expect(isEventStream(['x-request-id', 'r'])).toBe(false);
  });
});
