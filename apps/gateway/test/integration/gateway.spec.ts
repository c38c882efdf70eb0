import { request as httpRequest, type IncomingMessage } from 'node:http';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request, type Dispatcher } from 'undici';
import {
  BACKEND_SERVICES,
  Role,
  SESSION_COOKIE_NAME,
  SESSION_LOOKUP,
  type BackendService,
} from '@tollgate/contracts';
import { verifyInternalToken } from '@tollgate/platform';
import { jwtVerify } from 'jose';
import type { Env, RunningService } from '@tollgate/runtime';
import { chunkedBody } from '@tollgate/testing';
import { startGateway } from '../../src';
import {
  RecordingBackend,
  deadUrl,
  readFirstChunkThenHangUp,
  callGateway,
  type CallOptions,
} from './recording-backend';

const SECRET = 'gateway-integration-secret-0123456789abcdef';
// Above Fastify's own 1 MiB default, so the test shows that limit is not the one applied.
const BODY_LIMIT = 2 * 1024 * 1024;
const ALLOWED_ORIGIN = 'https://app.example.com';
const INDEX_HTML = '<!doctype html><title>tollgate</title><div id="root"></div>';
const ASSET_JS = 'console.log("tollgate asset");';
const OUTSIDE_SECRET = 'outside-the-web-root';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const URL_VARIABLE: Record<BackendService, string> = {
  auth: 'AUTH_URL',
  billing: 'BILLING_URL',
  relay: 'RELAY_URL',
  chat: 'CHAT_URL',
  admin: 'ADMIN_URL',
};

let tempRoot: string;
let webDir: string;
const backends = {} as Record<BackendService, RecordingBackend>;
let gateway: RunningService;
let downGateway: RunningService;
let throttledGateway: RunningService;
const client = new Agent({ keepAliveTimeout: 1000 });

function gatewayEnv(urls: Record<BackendService, string>, extra: Record<string, string> = {}): Env {
  const env: Record<string, string> = {
    TOLLGATE_INTERNAL_TOKEN_SECRET: SECRET,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    WEB_DIST_DIR: webDir,
    ...extra,
  };
  for (const service of BACKEND_SERVICES) env[URL_VARIABLE[service]] = urls[service];
  return env;
}

const call = (target: RunningService, path: string, options: CallOptions = {}) =>
  callGateway(client, target, path, options);

function receivedBy(service: BackendService) {
  return backends[service].received;
}

function allReceived() {
  return BACKEND_SERVICES.flatMap((service) => receivedBy(service).map((r) => ({ service, ...r })));
}

/** A raw request as node:http sends it: the path goes on the wire exactly as written. */
function rawGet(target: RunningService, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${target.url}/`, { path, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function waitUntil(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > 2000) throw new Error('condition not met within 2 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

beforeAll(async () => {
  tempRoot = await mkdtemp(join(tmpdir(), 'tollgate-gateway-'));
  webDir = join(tempRoot, 'web');
  await mkdir(join(webDir, 'assets'), { recursive: true });
  await writeFile(join(webDir, 'index.html'), INDEX_HTML);
  await writeFile(join(webDir, 'assets', 'app-3f9a.js'), ASSET_JS);
  // A sibling whose name starts like the web root's, to catch a prefix-only containment check.
  await writeFile(join(tempRoot, 'outside.txt'), OUTSIDE_SECRET);
  await mkdir(join(tempRoot, 'web-private'));
  await writeFile(join(tempRoot, 'web-private', 'secret.txt'), OUTSIDE_SECRET);

  for (const service of BACKEND_SERVICES) backends[service] = await RecordingBackend.start(service);
  const urls = Object.fromEntries(BACKEND_SERVICES.map((s) => [s, backends[s].url])) as Record<
    BackendService,
    string
  >;
  const dead = await deadUrl();
  const deadUrls = Object.fromEntries(BACKEND_SERVICES.map((s) => [s, dead])) as Record<
    BackendService,
    string
  >;

  gateway = await startGateway(
    gatewayEnv(urls, { GATEWAY_BODY_LIMIT_BYTES: String(BODY_LIMIT), CORS_ORIGINS: ALLOWED_ORIGIN }),
  );
  downGateway = await startGateway(gatewayEnv(deadUrls));
  throttledGateway = await startGateway(
    gatewayEnv(urls, { GATEWAY_RATE_LIMIT_PER_MINUTE: '3', GATEWAY_V1_RATE_LIMIT_PER_MINUTE: '3' }),
  );
});

afterAll(async () => {
  await Promise.all([gateway, downGateway, throttledGateway].map((g) => g?.close()));
  await Promise.all(Object.values(backends).map((b) => b.close()));
  await client.close();
  if (tempRoot) await rm(tempRoot, { recursive: true, force: true });
  // Services give open connections 5 s before cutting them on close.
}, 30_000);

beforeEach(() => {
  for (const backend of Object.values(backends)) backend.reset();
});

describe('routing to the owning backend', () => {
  const cases: [Dispatcher.HttpMethod, string, BackendService][] = [
    ['GET', '/api/user/self', 'auth'],
    ['POST', '/api/user/login?turnstile=abc', 'auth'],
    ['GET', '/api/token/?p=1&size=10', 'auth'],
    ['GET', '/api/oauth/github?code=xyz', 'auth'],
    ['GET', '/api/user/payment/logs?p=2', 'billing'],
    ['POST', '/api/user/aff_transfer', 'billing'],
    ['GET', '/api/log/self?type=2', 'billing'],
    ['GET', '/api/pricing', 'billing'],
    ['POST', '/api/promo/redeem', 'billing'],
    ['PUT', '/api/chat/42', 'chat'],
    ['GET', '/api/chat', 'chat'],
    ['GET', '/api/status', 'admin'],
    ['GET', '/api/notice', 'admin'],
    ['POST', '/v1/chat/completions', 'relay'],
    ['POST', '/v1/messages?beta=true', 'relay'],
    ['GET', '/v1/models', 'relay'],
    ['POST', '/v1beta/models/x:generateContent', 'relay'],
    ['POST', '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', 'relay'],
  ];

  it.each(cases)(
    '%s %s reaches %s with method, path, query, body and headers intact',
    async (method, path, service) => {
      const hasBody = method !== 'GET';
      const body = hasBody ? Buffer.from(JSON.stringify({ text: 'привет, мир', path }), 'utf8') : undefined;
      const response = await call(gateway, path, {
        method,
        headers: {
          authorization: 'Bearer sk-test-key',
          'new-api-user': '7',
          'x-custom-header': 'kept as is',
          ...(hasBody ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body } : {}),
      });

      expect(response.status).toBe(200);
      expect(response.json()).toEqual({ backend: service });
      expect(response.headers['x-backend']).toBe(service);
      const received = allReceived();
      expect(received).toHaveLength(1);
      const [seen] = received;
      expect(seen!.service).toBe(service);
      expect(seen!.method).toBe(method);
      expect(seen!.url).toBe(path);
      expect(seen!.headers.authorization).toBe('Bearer sk-test-key');
      expect(seen!.headers['new-api-user']).toBe('7');
      expect(seen!.headers['x-custom-header']).toBe('kept as is');
      if (body) {
        expect(seen!.headers['content-type']).toBe('application/json');
        expect(seen!.body.equals(body)).toBe(true);
      } else {
        expect(seen!.body).toHaveLength(0);
      }
    },
  );

  it('passes a multipart upload byte for byte', async () => {
    const boundary = 'tollgate-boundary-7d9';
    const audio = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 37) % 256));
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="a.mp3"\r\n\r\n`),
      audio,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);

    const response = await call(gateway, '/v1/audio/transcriptions', {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    });

    expect(response.status).toBe(200);
    const [seen] = receivedBy('relay');
    expect(seen!.headers['content-type']).toBe(`multipart/form-data; boundary=${boundary}`);
    expect(seen!.body.equals(body)).toBe(true);
  });

  it('passes a body without a content type', async () => {
    const response = await call(gateway, '/api/user/logout', { method: 'POST', body: 'plain bytes' });

    expect(response.status).toBe(200);
    expect(receivedBy('auth')[0]!.body.toString()).toBe('plain bytes');
  });

  it('passes a body larger than a megabyte when under the gateway limit', async () => {
    const body = Buffer.alloc(BODY_LIMIT - 1024, 'x');

    const response = await call(gateway, '/v1/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });

    expect(response.status).toBe(200);
    expect(receivedBy('relay')[0]!.body.equals(body)).toBe(true);
  });

  it('sends the request id and the client address, never a client-supplied identity or forwarding header', async () => {
    const response = await call(gateway, '/v1/chat/completions', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-request-id': 'client-req-0042',
        'x-tollgate-identity': 'forged.internal.token',
        'x-forwarded-for': '6.6.6.6',
        'x-forwarded-host': 'evil.example',
      },
      body: '{}',
    });

    expect(response.status).toBe(200);
    expect(response.headers['x-request-id']).toBe('client-req-0042');
    const [seen] = receivedBy('relay');
    expect(seen!.headers['x-request-id']).toBe('client-req-0042');
    expect(seen!.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(seen!.headers['x-forwarded-host']).toBeUndefined();
    expect(seen!.headers['x-tollgate-identity']).toBeUndefined();
  });

  it('replaces an insane incoming request id with its own, and tells the backend the same one', async () => {
    const response = await call(gateway, '/api/status', {
      headers: { 'x-request-id': 'not a sane id; drop table' },
    });

    const id = response.headers['x-request-id'];
    expect(id).toMatch(UUID);
    expect(receivedBy('admin')[0]!.headers['x-request-id']).toBe(id);
  });

  it('passes the answer’s headers on as the backend wrote them (repeats kept apart, bytes outside ASCII unchanged), under its own request id', async () => {
    const filename = Buffer.from('attachment; filename="отчёт.csv"', 'utf8');
    backends.relay.handlePath('/v1/header-probe', (_req, res) => {
      res.writeHead(200, [
        'Content-Type',
        'application/json',
        'x-request-id',
        'the-backend-own-id',
        'set-cookie',
        'a=1',
        'set-cookie',
        'b=2',
        'content-disposition',
        // Node writes a header string as latin1: these are the UTF-8 bytes on the wire.
        filename.toString('latin1'),
      ]);
      res.end('{}');
    });

    const answer = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = httpRequest(`${gateway.url}/v1/header-probe`, {
        agent: false,
        headers: { 'x-request-id': 'client-req-0043' },
      });
      req.on('response', resolve).on('error', reject).end();
    });
    answer.resume();

    expect(answer.statusCode).toBe(200);
    expect(answer.headers['x-request-id']).toBe('client-req-0043');
    expect(answer.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(Buffer.from(answer.headers['content-disposition']!, 'latin1').equals(filename)).toBe(true);
  });
});

describe('streaming', () => {
  it('passes each chunk to the client as the backend writes it', async () => {
    const writtenAt: number[] = [];
    backends.relay.handlePath('/v1/stream-probe', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let n = 0;
      const timer = setInterval(() => {
        n += 1;
        writtenAt.push(performance.now());
        if (n < 5) {
          res.write(`data: {"n":${n}}\n\n`);
        } else {
          clearInterval(timer);
          res.end('data: [DONE]\n\n');
        }
      }, 100);
    });

    const response = await request(`${gateway.url}/v1/stream-probe`, { dispatcher: client });
    const arrivedAt: number[] = [];
    let text = '';
    for await (const chunk of response.body) {
      arrivedAt.push(performance.now());
      text += (chunk as Buffer).toString();
    }

    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/event-stream');
    expect(text).toBe('data: {"n":1}\n\ndata: {"n":2}\n\ndata: {"n":3}\n\ndata: {"n":4}\n\ndata: [DONE]\n\n');
    expect(writtenAt).toHaveLength(5);
    // The first chunk was in the client's hands before the backend even wrote its second one.
    expect(arrivedAt[0]!).toBeLessThan(writtenAt[1]!);
    expect(arrivedAt.length).toBeGreaterThanOrEqual(3);
  });

  it('aborts the backend call when the client disconnects mid-stream', async () => {
    let backendFinished = false;
    let timer: NodeJS.Timeout | undefined;
    const backendClosed = new Promise<void>((resolve) => {
      backends.relay.handlePath('/v1/endless-probe', (req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: first\n\n');
        timer = setInterval(() => res.write('data: more\n\n'), 50);
        res.on('finish', () => (backendFinished = true));
        res.on('close', () => {
          clearInterval(timer);
          resolve();
        });
        req.resume();
      });
    });

    await readFirstChunkThenHangUp(`${gateway.url}/v1/endless-probe`);

    await backendClosed;
    expect(backendFinished).toBe(false);
  });

  it('aborts the backend call when the client gives up before the first byte', async () => {
    const backendClosed = new Promise<boolean>((resolve) => {
      backends.relay.handlePath('/v1/thinking-probe', (req, res) => {
        let finished = false;
        res.on('finish', () => (finished = true));
        res.on('close', () => resolve(finished));
        req.resume();
      });
    });

    const req = httpRequest(`${gateway.url}/v1/thinking-probe`, { agent: false });
    req.on('error', () => undefined);
    req.end();
    await waitUntil(() => receivedBy('relay').length === 1);
    req.destroy();

    expect(await backendClosed).toBe(false);
  });

  it('answers 504 in the caller’s shape, and lets the backend go, when a backend holds a call without answering (frozen)', async () => {
    const impatient = await startGateway(
      gatewayEnv(
        Object.fromEntries(BACKEND_SERVICES.map((s) => [s, backends[s].url])) as Record<
          BackendService,
          string
        >,
        { GATEWAY_BACKEND_HEADERS_TIMEOUT_MS: '300', GATEWAY_MODEL_HEADERS_TIMEOUT_MS: '300' },
      ),
    );
    try {
      const released: Promise<boolean>[] = [];
      const hold = (backend: RecordingBackend, path: string) =>
        released.push(
          new Promise((resolve) =>
            backend.handlePath(path, (req, res) => {
              req.resume();
              res.on('close', () => resolve(!res.writableFinished));
            }),
          ),
        );
      hold(backends.relay, '/v1/frozen-probe');
      hold(backends.admin, '/api/status/frozen-probe');

      const model = await call(impatient, '/v1/frozen-probe');
      const api = await call(impatient, '/api/status/frozen-probe');

      expect(model.status).toBe(504);
      expect(model.json()).toEqual({
        error: expect.objectContaining({
          message: expect.stringContaining('relay'),
          code: 'upstream_timeout',
        }),
      });
      expect(api.status).toBe(504);
      expect(api.json()).toEqual({ success: false, message: expect.stringContaining('admin') });
      expect(await Promise.all(released)).toEqual([true, true]);
    } finally {
      await impatient.close();
    }
  });

  it('cuts the client off, rather than ending cleanly, when the backend breaks mid-stream', async () => {
    backends.relay.handlePath('/v1/breaking-probe', (req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: partial\n\n', () => setTimeout(() => res.socket?.destroy(), 50));
      req.resume();
    });

    const outcome = await new Promise<{ received: string; endedCleanly: boolean }>((resolve, reject) => {
      const req = httpRequest(`${gateway.url}/v1/breaking-probe`, { agent: false }, (res) => {
        let received = '';
        let endedCleanly = false;
        res.on('data', (chunk: Buffer) => (received += chunk.toString()));
        res.on('end', () => (endedCleanly = true));
        res.on('error', () => undefined);
        res.on('close', () => resolve({ received, endedCleanly }));
      });
      req.on('error', reject);
      req.end();
    });

    expect(outcome).toEqual({ received: 'data: partial\n\n', endedCleanly: false });
  });
});

describe('refusals', () => {
  const badPath = 'The request path is not a valid URL';
  it.each([
    [
      '/v1/models/%FF',
      { error: { message: badPath, type: 'invalid_request_error', param: null, code: 'validation_failed' } },
    ],
    ['/v1/messages/%FF', { type: 'error', error: { type: 'invalid_request_error', message: badPath } }],
    ['/v1beta/models/%FF', { error: { code: 400, message: badPath, status: 'INVALID_ARGUMENT' } }],
    ['/api/%FF', { success: false, message: badPath }],
  ])("answers a path that does not decode (%s) with 400 in the caller's shape", async (path, shape) => {
    const response = await call(gateway, path);

    expect(response.status).toBe(400);
    expect(response.json()).toEqual(shape);
  });

  it.each([
    ['/api/user/self', { success: false, message: expect.stringContaining('auth') }],
    [
      '/v1/chat/completions',
      {
        error: {
          message: expect.stringContaining('relay'),
          type: 'server_error',
          param: null,
          code: 'upstream_service_down',
        },
      },
    ],
    [
      '/v1/messages',
      { type: 'error', error: { type: 'api_error', message: expect.stringContaining('relay') } },
    ],
    [
      '/v1beta/models/x:generateContent',
      { error: { code: 502, message: expect.stringContaining('relay'), status: 'UNAVAILABLE' } },
    ],
  ])('answers 502 in the caller’s shape when the backend of %s is down', async (path, shape) => {
    const response = await call(downGateway, path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"model":"gpt-x"}',
    });

    expect(response.status).toBe(502);
    expect(response.headers['x-request-id']).toBeDefined();
    expect(response.json()).toEqual(shape);
  });

  it('refuses a declared body over the limit with 413 without reaching the backend', async () => {
    const response = await call(gateway, '/v1/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: Buffer.alloc(BODY_LIMIT + 1, 'a'),
    });

    expect(response.status).toBe(413);
    expect(response.json()).toEqual({
      error: expect.objectContaining({
        code: 'payload_too_large',
        message: expect.stringContaining(String(BODY_LIMIT)),
      }),
    });
    expect(allReceived()).toHaveLength(0);
  });

  it('holds /api bodies to the services’ own limit, so a too-large one is answered at once, not cut half-way', async () => {
    const between = Buffer.alloc(1024 * 1024 + 1, 'a');
    const api = await call(gateway, '/api/user/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: between,
    });
    expect(api.status).toBe(413);
    expect(api.json()).toEqual({ success: false, message: expect.stringContaining('1048576') });
    expect(allReceived()).toHaveLength(0);

    const v1 = await call(gateway, '/v1/embeddings', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: between,
    });
    expect(v1.status).toBe(200);
  });

  it('cuts a chunked body at the limit and answers 413 in the caller’s shape', async () => {
    const response = await call(gateway, '/v1/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: chunkedBody(BODY_LIMIT + 64 * 1024, 'a'),
    });

    expect(response.status).toBe(413);
    expect(response.json()).toEqual({
      error: expect.objectContaining({ code: 'payload_too_large', param: null }),
    });
    for (const seen of receivedBy('relay')) expect(seen.body.length).toBeLessThanOrEqual(BODY_LIMIT);
  });

  it('forwards a chunked body under the limit whole', async () => {
    const response = await call(gateway, '/v1/embeddings', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: chunkedBody(BODY_LIMIT - 100, 'a'),
    });

    expect(response.status).toBe(200);
    const [seen] = receivedBy('relay');
    expect(seen!.headers['transfer-encoding']).toBe('chunked');
    expect(seen!.body.equals(Buffer.alloc(BODY_LIMIT - 100, 'a'))).toBe(true);
  });

  it('answers 429 with Retry-After once a client passes its per-minute limit, whatever it claims to be', async () => {
    // A made-up X-Forwarded-For per call must not buy a fresh bucket: no proxy is trusted here.
    const claiming = (n: number): CallOptions => ({ headers: { 'x-forwarded-for': `203.0.113.${n}` } });
    for (let n = 1; n <= 3; n++)
      expect((await call(throttledGateway, '/api/status', claiming(n))).status).toBe(200);

    const refused = await call(throttledGateway, '/api/status', claiming(4));
    const refusedOnV1 = await call(throttledGateway, '/v1/models', claiming(5));

    expect(refused.status).toBe(429);
    expect(refused.json()).toEqual({ success: false, message: expect.any(String) });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refusedOnV1.status).toBe(429);
    expect(refusedOnV1.json()).toEqual({
      error: expect.objectContaining({ type: 'rate_limit_error', code: 'rate_limit_exceeded' }),
    });
    expect(receivedBy('admin')).toHaveLength(3);
    expect(receivedBy('relay')).toHaveLength(0);
  });

  it("counts model calls that name an API key against their own per-address limit, not the dashboard's", async () => {
    // The address's limit for /api and keyless calls is spent first: a paying client's calls still pass.
    for (let n = 0; n < 4; n++) await call(throttledGateway, '/api/status');
    expect((await call(throttledGateway, '/v1/models')).status).toBe(429);

    const keyed = [
      await call(throttledGateway, '/v1/models', { headers: { authorization: 'Bearer sk-a' } }),
      await call(throttledGateway, '/v1/messages', { method: 'POST', headers: { 'x-api-key': 'sk-a' } }),
      await call(throttledGateway, '/v1beta/models?key=sk-a'),
    ];
    const overTheirs = await call(throttledGateway, '/v1/models', { headers: { 'x-goog-api-key': 'sk-a' } });

    expect(keyed.map((response) => response.status)).toEqual([200, 200, 200]);
    expect(receivedBy('relay')).toHaveLength(3);
    expect(overTheirs.status).toBe(429);
    expect(overTheirs.json()).toEqual({
      error: expect.objectContaining({ type: 'rate_limit_error', code: 'rate_limit_exceeded' }),
    });
  });

  it.each(['/api/channel/', '/api/channel/42', '/api/option/'])(
    'refuses admin-only %s with 401 before the backend',
    async (path) => {
      const response = await call(gateway, path);

      expect(response.status).toBe(401);
      expect(response.json()).toEqual({ success: false, message: expect.any(String) });
      expect(allReceived()).toHaveLength(0);
    },
  );

  it('refuses in the caller’s language: Russian without Accept-Language, English when asked', async () => {
    const russian = await call(gateway, '/api/channel/');
    const english = await call(gateway, '/api/channel/', {
      headers: { 'accept-language': 'en-US,en;q=0.9' },
    });

    expect([russian.status, english.status]).toEqual([401, 401]);
    expect(russian.json()).toEqual({ success: false, message: 'Необходимо войти в аккаунт' });
    expect(english.json()).toEqual({ success: false, message: 'Authentication required' });
    expect(allReceived()).toHaveLength(0);
  });

  it('words its own 404, 502 and 413 on /api in the caller’s language, and on /v1 in English whatever it asks', async () => {
    const english = { 'accept-language': 'en-US,en;q=0.9' };
    const russian = { 'accept-language': 'ru-RU,ru;q=0.9' };
    const json = { 'content-type': 'application/json' };
    const tooLarge = Buffer.alloc(1024 * 1024 + 1, 'a');
    const messages = async (path: string, options: CallOptions, expectedStatus: number, target = gateway) => {
      const answers = [
        await call(target, path, options),
        await call(target, path, { ...options, headers: { ...options.headers, ...english } }),
      ];
      expect(answers.map((answer) => answer.status)).toEqual([expectedStatus, expectedStatus]);
      return answers.map((answer) => (answer.json() as { message: string }).message);
    };

    expect(await messages('/api/x?page=2', {}, 404)).toEqual([
      'Нет такого адреса: GET /api/x',
      'No route for GET /api/x',
    ]);
    expect(await messages('/api/user/login', { method: 'POST', headers: json, body: tooLarge }, 413)).toEqual(
      ['Тело запроса больше 1048576 байт', 'Request body is larger than 1048576 bytes'],
    );
    expect(await messages('/api/user/self', {}, 502, downGateway)).toEqual([
      'Сервис auth недоступен',
      'The auth service is unavailable',
    ]);
    const v1 = await call(downGateway, '/v1/chat/completions', {
      method: 'POST',
      headers: { ...json, ...russian },
      body: '{"model":"gpt-x"}',
    });
    expect(v1.status).toBe(502);
    expect(v1.json()).toMatchObject({ error: { message: 'The relay service is unavailable' } });
    expect(allReceived()).toHaveLength(0);
  });

  it('answers 404 in the envelope for an /api path no service owns', async () => {
    const response = await call(gateway, '/api/x');

    expect(response.status).toBe(404);
    expect(response.json()).toEqual({ success: false, message: expect.any(String) });
    expect(allReceived()).toHaveLength(0);
  });
});

describe('sessions', () => {
  const SESSIONS: Record<string, { userId: number; role: Role; group: string; sessionId: string }> = {
    'user-cookie': { userId: 7, role: Role.User, group: 'vip', sessionId: 'sid-7' },
    'root-cookie': { userId: 1, role: Role.Root, group: 'default', sessionId: 'sid-1' },
  };
  let lookups: { serviceTokenValid: boolean; session: string }[];
  let authDown: boolean;

  beforeEach(() => {
    lookups = [];
    authDown = false;
    backends.auth.handlePath(SESSION_LOOKUP.path, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        void (async () => {
          const token = String(req.headers[SESSION_LOOKUP.header] ?? '');
          const serviceTokenValid = await jwtVerify(token, Buffer.from(SECRET), {
            issuer: SESSION_LOOKUP.issuer,
            audience: SESSION_LOOKUP.audience,
          }).then(
            () => true,
            () => false,
          );
          const { session } = JSON.parse(Buffer.concat(chunks).toString()) as { session: string };
          lookups.push({ serviceTokenValid, session });
          const identity = SESSIONS[session];
          const status = authDown ? 500 : identity && serviceTokenValid ? 200 : 401;
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify(
              status === 200
                ? { success: true, message: '', data: identity }
                : { success: false, message: 'no' },
            ),
          );
        })();
      });
    });
  });

  const signedIn = (cookie: string, newApiUser?: string) => ({
    headers: {
      cookie: `${SESSION_COOKIE_NAME}=${cookie}`,
      ...(newApiUser === undefined ? {} : { 'new-api-user': newApiUser }),
    },
  });
  const forwardedTo = (service: BackendService) =>
    receivedBy(service).filter((r) => r.url !== SESSION_LOOKUP.path);

  it('looks the cookie up in auth with its service token and forwards the caller as a signed identity', async () => {
    const response = await call(gateway, '/api/chat', signedIn('user-cookie', '7'));

    expect(response.status).toBe(200);
    expect(lookups).toEqual([{ serviceTokenValid: true, session: 'user-cookie' }]);
    const identity = forwardedTo('chat')[0]!.headers['x-tollgate-identity'] as string;
    await expect(verifyInternalToken(identity, SECRET)).resolves.toEqual({
      userId: 7,
      role: Role.User,
      group: 'vip',
      sessionId: 'sid-7',
      via: 'session',
    });
  });

  it('refuses a New-Api-User that is not the session’s user with 401 before the backend', async () => {
    const response = await call(gateway, '/api/chat', signedIn('user-cookie', '8'));

    expect(response.status).toBe(401);
    expect(response.json()).toEqual({ success: false, message: expect.any(String) });
    expect(forwardedTo('chat')).toHaveLength(0);
  });

  it('forwards an unknown cookie anonymously, and never caches it', async () => {
    await call(gateway, '/api/chat', signedIn('stale-cookie', '7'));
    await call(gateway, '/api/chat', signedIn('stale-cookie', '7'));

    expect(lookups).toHaveLength(2);
    expect(forwardedTo('chat').map((r) => r.headers['x-tollgate-identity'])).toEqual([undefined, undefined]);
  });

  it('answers 403 to a user session on an admin route and forwards the root’s', async () => {
    const asUser = await call(gateway, '/api/channel/', signedIn('user-cookie', '7'));
    const asRoot = await call(gateway, '/api/option/', signedIn('root-cookie', '1'));

    const asUserInEnglish = await call(gateway, '/api/channel/', {
      headers: { ...signedIn('user-cookie', '7').headers, 'accept-language': 'en' },
    });

    expect(asUser.status).toBe(403);
    expect(asUser.json()).toEqual({ success: false, message: 'Недостаточно прав' });
    expect(asUserInEnglish.json()).toEqual({ success: false, message: 'Insufficient permissions' });
    expect(asRoot.status).toBe(200);
    expect(forwardedTo('admin')).toHaveLength(1);
  });

  it('answers 502 in the envelope when auth cannot answer a session look-up', async () => {
    authDown = true;

    const response = await call(gateway, '/api/chat', signedIn('fresh-cookie', '7'));

    expect(response.status).toBe(502);
    expect(response.json()).toEqual({ success: false, message: expect.stringContaining('auth') });
    expect(forwardedTo('chat')).toHaveLength(0);
  });
});

describe('CORS', () => {
  it('answers a preflight from an allowed origin itself', async () => {
    const response = await call(gateway, '/api/user/self', {
      method: 'OPTIONS',
      headers: {
        origin: ALLOWED_ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, new-api-user',
      },
    });

    expect(response.status).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe(ALLOWED_ORIGIN);
    expect(response.headers['access-control-allow-credentials']).toBe('true');
    expect(response.headers['access-control-allow-methods']).toContain('POST');
    expect(response.headers['access-control-allow-headers']).toContain('new-api-user');
    expect(allReceived()).toHaveLength(0);
  });

  it('adds the allow header to a real call from an allowed origin', async () => {
    const response = await call(gateway, '/api/status', { headers: { origin: ALLOWED_ORIGIN } });

    expect(response.status).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe(ALLOWED_ORIGIN);
    expect(response.headers['access-control-expose-headers']).toContain('x-request-id');
  });

  it('gives an unknown origin no allow header', async () => {
    const preflight = await call(gateway, '/api/status', {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    const real = await call(gateway, '/api/status', { headers: { origin: 'https://evil.example' } });

    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(real.status).toBe(200);
    expect(real.headers['access-control-allow-origin']).toBeUndefined();
  });

  it.each(['/v1/chat/completions', '/v1/messages', '/v1beta/models/gemini-2.5-flash:generateContent'])(
    "answers any origin's preflight to the model API at %s itself, without credentials",
    async (path) => {
      const response = await call(gateway, path, {
        method: 'OPTIONS',
        headers: {
          origin: 'http://localhost:3000',
          'access-control-request-method': 'POST',
          'access-control-request-headers':
            'authorization, content-type, anthropic-dangerous-direct-browser-access',
        },
      });

      expect(response.status).toBe(204);
      expect(response.headers['access-control-allow-origin']).toBe('*');
      expect(response.headers['access-control-allow-credentials']).toBeUndefined();
      expect(response.headers['access-control-allow-headers']).toBe(
        'authorization, content-type, anthropic-dangerous-direct-browser-access',
      );
      expect(allReceived()).toHaveLength(0);
    },
  );

  it('lets a page on any origin call the model API with a key and read the headers SDKs read', async () => {
    const response = await call(gateway, '/v1/models', {
      headers: { origin: 'chrome-extension://abcdefghijklmnop', authorization: 'Bearer sk-a' },
    });

    expect(response.status).toBe(200);
    expect(receivedBy('relay')).toHaveLength(1);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
    expect(response.headers['access-control-expose-headers']).toContain('retry-after');
    expect(response.headers['access-control-expose-headers']).toContain('x-ratelimit-remaining-requests');
  });

  it("keeps the dashboard's API to the configured origins", async () => {
    const preflight = await call(gateway, '/api/user/self', {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'POST' },
    });

    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
  });
});

describe('web app', () => {
  it.each(['/', '/dashboard/tokens', '/dashboard/tokens?p=2'])('serves index.html at %s', async (path) => {
    const response = await call(gateway, path);

    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.text).toBe(INDEX_HTML);
  });

  it('serves a hashed asset with a long cache lifetime', async () => {
    const response = await call(gateway, '/assets/app-3f9a.js');

    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toContain('javascript');
    expect(response.headers['cache-control']).toContain('max-age=31536000');
    expect(response.headers['cache-control']).toContain('immutable');
    expect(response.text).toBe(ASSET_JS);
  });

  it.each([
    '/../outside.txt',
    '/%2e%2e/outside.txt',
    '/assets/%2e%2e/%2e%2e/outside.txt',
    '/..%2fweb-private%2fsecret.txt',
    '/%2e%2e/web-private/secret.txt',
  ])('never serves a file outside the web root for %s', async (path) => {
    const response = await rawGet(gateway, path);

    expect(response.body).not.toContain(OUTSIDE_SECRET);
  });
});

describe('operations', () => {
  it('answers /health and /health/ready', async () => {
    const live = await call(gateway, '/health');
    const ready = await call(gateway, '/health/ready');

    expect(live.status).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
    expect(ready.status).toBe(200);
    expect(ready.json()).toEqual(expect.objectContaining({ status: 'ok' }));
  });

  it('exposes the gateway overhead of proxied requests in /metrics', async () => {
    await call(gateway, '/api/pricing');

    const metrics = await call(gateway, '/metrics');

    expect(metrics.status).toBe(200);
    expect(metrics.text).toMatch(
      /tollgate_gateway_overhead_seconds_count\{[^}]*route="billing"[^}]*\} [1-9]/,
    );
  });

  it.each([
    '/',
    '/dashboard/tokens',
    '/assets/app-3f9a.js',
    '/health',
    '/health/ready',
    '/metrics',
    '/api/status',
    '/api/x',
    '/api/channel/',
    '/v1/models',
  ])('puts a request id on the answer to %s, keeping a sane incoming one', async (path) => {
    const generated = await call(gateway, path);
    const kept = await call(gateway, path, { headers: { 'x-request-id': 'trace-abc.123' } });

    expect(generated.headers['x-request-id']).toMatch(UUID);
    expect(kept.headers['x-request-id']).toBe('trace-abc.123');
  });
});
