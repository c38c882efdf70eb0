import { IncomingMessage, ServerResponse, type IncomingHttpHeaders } from 'node:http';
import { Socket } from 'node:net';
import { CorsPolicy } from './cors-policy';

const APP = 'https://app.example.com';
const API = '/api/user/self';
const ELSEWHERE = 'http://localhost:3000';

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

    expect(new CorsPolicy('').apply(req, res, API)).toBe(false);
    expect(res.getHeaderNames()).toEqual([]);
    expect(res.writableEnded).toBe(false);
  });

  it('adds nothing to a same-origin call, which sends no Origin', () => {
    const { req, res } = exchange('GET', {});

    expect(new CorsPolicy(APP).apply(req, res, API)).toBe(false);
    expect(res.getHeaderNames()).toEqual([]);
  });

  it('answers a preflight from an allowed origin with 204 and the allow headers', () => {
    const { req, res } = preflight(APP);

    expect(new CorsPolicy(` https://other.example , ${APP}/`).apply(req, res, API)).toBe(true);
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

    expect(new CorsPolicy(APP).apply(req, res, API)).toBe(false);
    expect(res.getHeader('access-control-allow-origin')).toBe(APP);
    expect(res.getHeader('access-control-expose-headers')).toContain('x-request-id');
    expect(res.getHeader('access-control-allow-credentials')).toBe('true');
    expect(res.getHeader('access-control-allow-methods')).toBeUndefined();
    expect(res.writableEnded).toBe(false);
  });

  it('treats an OPTIONS call without a requested method as a plain call', () => {
    const { req, res } = exchange('OPTIONS', { origin: APP });

    expect(new CorsPolicy(APP).apply(req, res, API)).toBe(false);
    expect(res.writableEnded).toBe(false);
  });

  it('gives an unknown origin no allow header and leaves its preflight to the route', () => {
    const { req, res } = preflight('https://evil.example');

    expect(new CorsPolicy(APP).apply(req, res, API)).toBe(false);
    expect(res.getHeader('access-control-allow-origin')).toBeUndefined();
    expect(res.getHeader('vary')).toBe('Origin');
    expect(res.writableEnded).toBe(false);
  });

  it('allows any origin, echoed back, when configured with *', () => {
    const { req, res } = exchange('GET', { origin: 'https://anyone.example' });

    new CorsPolicy('*').apply(req, res, API);

    expect(res.getHeader('access-control-allow-origin')).toBe('https://anyone.example');
  });

  describe('on the model API, where the caller sends a key', () => {
    const keyPreflight = () =>
      exchange('OPTIONS', {
        origin: ELSEWHERE,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, x-stainless-os',
      });

    it.each([
      '/v1/chat/completions',
      '/v1/messages',
      '/v1beta/models/gemini-2.5-flash:generateContent',
      '/v1',
    ])("answers any origin's preflight to %s with 204, the asked headers and no credentials", (path) => {
      const { req, res } = keyPreflight();

      expect(new CorsPolicy('').apply(req, res, path)).toBe(true);
      expect(res.statusCode).toBe(204);
      expect(res.writableEnded).toBe(true);
      expect(res.getHeader('access-control-allow-origin')).toBe('*');
      expect(res.getHeader('access-control-allow-credentials')).toBeUndefined();
      expect(res.getHeader('access-control-allow-methods')).toContain('POST');
      expect(res.getHeader('access-control-allow-headers')).toBe(
        'authorization, content-type, x-stainless-os',
      );
    });

    it('lets the call itself through with the headers SDKs read exposed, and no credentials', () => {
      const { req, res } = exchange('POST', { origin: ELSEWHERE, authorization: 'Bearer sk-x' });

      expect(new CorsPolicy(APP).apply(req, res, '/v1/chat/completions')).toBe(false);
      expect(res.getHeader('access-control-allow-origin')).toBe('*');
      expect(res.getHeader('access-control-allow-credentials')).toBeUndefined();
      const exposed = String(res.getHeader('access-control-expose-headers'));
      for (const header of [
        'x-request-id',
        'request-id',
        'retry-after',
        'retry-after-ms',
        'x-ratelimit-remaining-requests',
      ])
        expect(exposed).toContain(header);
      expect(res.getHeader('vary')).toBe('Origin');
      expect(res.writableEnded).toBe(false);
    });

    it("does not let another origin's page send New-Api-User, the dashboard's signed-in user header", () => {
      const { req, res } = exchange('OPTIONS', {
        origin: ELSEWHERE,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,New-Api-User',
      });

      expect(new CorsPolicy('').apply(req, res, '/v1/chat/completions')).toBe(true);
      expect(res.getHeader('access-control-allow-headers')).toBe('content-type');
    });

    it('answers a preflight that names no headers with the usual list', () => {
      const { req, res } = preflight(ELSEWHERE);

      expect(new CorsPolicy('').apply(req, res, '/v1/models')).toBe(true);
      expect(res.getHeader('access-control-allow-headers')).toContain('authorization');
    });

    it('keeps a configured origin credentialed there (the web app)', () => {
      const { req, res } = exchange('POST', { origin: APP });

      new CorsPolicy(APP).apply(req, res, '/v1/chat/completions');

      expect(res.getHeader('access-control-allow-origin')).toBe(APP);
      expect(res.getHeader('access-control-allow-credentials')).toBe('true');
    });

    it('leaves /api to the configured origins, /v1-looking paths elsewhere included', () => {
      for (const path of ['/api/user/self', '/api/v1/chat', '/v1x/models']) {
        const { req, res } = preflight(ELSEWHERE);
        expect(new CorsPolicy('').apply(req, res, path)).toBe(false);
        expect(res.getHeader('access-control-allow-origin')).toBeUndefined();
        expect(res.writableEnded).toBe(false);
      }
    });
  });
});
