import type { IncomingHttpHeaders } from 'node:http';
import { requestHeadersForBackend, responseHeadersForClient } from './forward-headers';

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

    expect(requestHeadersForBackend(incoming, {})).toEqual({});
  });

  it('drops a caller’s claimed internal identity and forwarding headers, and sets the gateway’s own', () => {
    const incoming: IncomingHttpHeaders = {
      'x-tollgate-identity': 'forged.token',
      'x-forwarded-for': '6.6.6.6',
      'x-forwarded-proto': 'http',
      'x-forwarded-host': 'evil.example',
      'x-request-id': 'client-chosen',
    };

    expect(requestHeadersForBackend(incoming, added)).toEqual(added);
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

    expect(requestHeadersForBackend(incoming, added)).toEqual({ ...incoming, ...added });
  });
});

describe('responseHeadersForClient', () => {
  it('drops hop-by-hop headers and keeps the rest', () => {
    const upstream = {
      connection: 'close',
      'keep-alive': 'timeout=5',
      'transfer-encoding': 'chunked',
      trailer: 'x-checksum',
      upgrade: 'h2c',
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      'set-cookie': ['session=s1; HttpOnly', 'lang=ru'],
      'x-absent': undefined,
    };

    expect(responseHeadersForClient(upstream)).toEqual({
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      'set-cookie': ['session=s1; HttpOnly', 'lang=ru'],
    });
  });
});
