import { IncomingMessage, ServerResponse, type IncomingHttpHeaders } from 'node:http';
import { Socket } from 'node:net';
import { CorsPolicy } from './cors-policy';

const APP = 'https://app.example.com';

function exchange(method: string, headers: IncomingHttpHeaders) {
  const req = new IncomingMessage(new Socket());
  req.method = method;
  req.headers = headers;
  return { req, res: new ServerResponse(req) };
}

const preflight = (origin: string) =>
  exchange('OPTIONS', { origin, 'access-control-request-method': 'POST' });

describe('CorsPolicy', () => {
  it('adds nothing when no origin is configured', () => {
    const { req, res } = preflight(APP);

    expect(new CorsPolicy('').apply(req, res)).toBe(false);
    expect(res.getHeaderNames()).toEqual([]);
    expect(res.writableEnded).toBe(false);
  });

  it('adds nothing to a same-origin call, which sends no Origin', () => {
    const { req, res } = exchange('GET', {});

    expect(new CorsPolicy(APP).apply(req, res)).toBe(false);
    expect(res.getHeaderNames()).toEqual([]);
  });

  it('answers a preflight from an allowed origin with 204 and the allow headers', () => {
    const { req, res } = preflight(APP);

    expect(new CorsPolicy(` https://other.example , ${APP}/`).apply(req, res)).toBe(true);
    expect(res.statusCode).toBe(204);
    expect(res.writableEnded).toBe(true);
    expect(res.getHeader('access-control-allow-origin')).toBe(APP);
    expect(res.getHeader('access-control-allow-credentials')).toBe('true');
    expect(res.getHeader('access-control-allow-methods')).toContain('POST');
    expect(res.getHeader('access-control-allow-headers')).toContain('authorization');
    expect(res.getHeader('access-control-allow-headers')).toContain('new-api-user');
    expect(res.getHeader('access-control-max-age')).toBe('600');
    expect(res.getHeader('vary')).toBe('Origin');
  });

  it('lets a real call from an allowed origin through with the allow headers set', () => {
    const { req, res } = exchange('POST', { origin: APP });

    expect(new CorsPolicy(APP).apply(req, res)).toBe(false);
    expect(res.getHeader('access-control-allow-origin')).toBe(APP);
    expect(res.getHeader('access-control-expose-headers')).toContain('x-request-id');
    expect(res.getHeader('access-control-allow-methods')).toBeUndefined();
    expect(res.writableEnded).toBe(false);
  });

  it('treats an OPTIONS call without a requested method as a plain call', () => {
    const { req, res } = exchange('OPTIONS', { origin: APP });

    expect(new CorsPolicy(APP).apply(req, res)).toBe(false);
    expect(res.writableEnded).toBe(false);
  });

  it('gives an unknown origin no allow header and leaves its preflight to the route', () => {
    const { req, res } = preflight('https://evil.example');

    expect(new CorsPolicy(APP).apply(req, res)).toBe(false);
    expect(res.getHeader('access-control-allow-origin')).toBeUndefined();
    expect(res.getHeader('vary')).toBe('Origin');
    expect(res.writableEnded).toBe(false);
  });

  it('allows any origin, echoed back, when configured with *', () => {
    const { req, res } = exchange('GET', { origin: 'https://anyone.example' });

    new CorsPolicy('*').apply(req, res);

    expect(res.getHeader('access-control-allow-origin')).toBe('https://anyone.example');
  });
});
