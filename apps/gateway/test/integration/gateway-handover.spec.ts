import { Agent as HttpAgent, request as httpRequest, type ServerResponse } from 'node:http';
import { Agent } from 'undici';
import { BACKEND_SERVICES, type BackendService } from '@tollgate/contracts';
import type { Env, RunningService } from '@tollgate/runtime';
import { chunkedBody, headersToCompare } from '@tollgate/testing';
import { startGateway } from '../../src';
import {
  RecordingBackend,
  readFirstChunkThenHangUp,
  callGateway,
  type CallOptions,
} from './recording-backend';

const SECRET = 'gateway-handover-secret-0123456789abcdef';
const BODY_LIMIT = 4096;
const ALLOWED_ORIGIN = 'https://app.example.com';

const URL_VARIABLE: Record<BackendService, string> = {
  auth: 'AUTH_URL',
  billing: 'BILLING_URL',
  relay: 'RELAY_URL',
  chat: 'CHAT_URL',
  admin: 'ADMIN_URL',
};

const backends = {} as Record<BackendService, RecordingBackend>;
/** Hands /v1 calls to relay's server in-process (embedded mode). */
let handing: RunningService;
/** The same gateway forwarding them over HTTP: what the client saw before the hand-over. */
let forwarding: RunningService;
/** A gateway whose relay handler throws. */
let broken: RunningService;
let handedOver = 0;
const client = new Agent({ keepAliveTimeout: 1000 });

function gatewayEnv(): Env {
  const env: Record<string, string> = {
    TOLLGATE_INTERNAL_TOKEN_SECRET: SECRET,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    GATEWAY_BODY_LIMIT_BYTES: String(BODY_LIMIT),
    GATEWAY_TRUSTED_PROXIES: 'loopback',
    CORS_ORIGINS: ALLOWED_ORIGIN,
  };
  for (const service of BACKEND_SERVICES) env[URL_VARIABLE[service]] = backends[service].url;
  return env;
}

const call = (target: RunningService, path: string, options: CallOptions = {}) =>
  callGateway(client, target, path, options);

beforeAll(async () => {
  for (const service of BACKEND_SERVICES) backends[service] = await RecordingBackend.start(service);
  handing = await startGateway(gatewayEnv(), {
    relayHandler: (req, res) => {
      handedOver++;
      backends.relay.handle(req, res);
    },
  });
  forwarding = await startGateway(gatewayEnv());
  broken = await startGateway(gatewayEnv(), {
    relayHandler: () => {
      throw new Error('relay broke');
    },
  });
});

afterAll(async () => {
  await Promise.all([handing, forwarding, broken].map((g) => g?.close()));
  await Promise.all(Object.values(backends).map((b) => b.close()));
  await client.close();
});

beforeEach(() => {
  handedOver = 0;
  for (const backend of Object.values(backends)) backend.reset();
});

describe('a gateway with relay in its process', () => {
  it('hands a /v1 call to relay with the headers a forwarded call carries and the client address it resolved', async () => {
    const body = Buffer.from(JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hé' }] }));
    const response = await call(handing, '/v1/chat/completions?x=1', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: 'Bearer sk-test-key',
        'x-request-id': 'client-req-0100',
        'x-tollgate-identity': 'forged.internal.token',
        // From loopback, a trusted proxy: its nearest untrusted entry is the client.
        'x-forwarded-for': '6.6.6.6, 203.0.113.9',
        'x-forwarded-host': 'evil.example',
      },
      body,
    });

    expect(response.status).toBe(200);
    expect(response.headers['x-request-id']).toBe('client-req-0100');
    expect(handedOver).toBe(1);
    const [seen] = backends.relay.received;
    expect(seen).toMatchObject({ method: 'POST', url: '/v1/chat/completions?x=1' });
    expect(seen!.body.equals(body)).toBe(true);
    expect(seen!.headers).toMatchObject({
      authorization: 'Bearer sk-test-key',
      'x-request-id': 'client-req-0100',
      'x-forwarded-for': '203.0.113.9',
      'x-forwarded-proto': 'http',
    });
    expect(seen!.headers['x-tollgate-identity']).toBeUndefined();
    expect(seen!.headers['x-forwarded-host']).toBeUndefined();
    expect(seen!.handedOver).toEqual({ ip: '203.0.113.9', protocol: 'http' });
  });

  it('answers a handed-over call with the status, headers and body of a forwarded one, CORS headers included', async () => {
    backends.relay.handlePath('/v1/header-probe', (req, res) => {
      req.resume();
      res.writeHead(201, [
        'Content-Type',
        'application/json',
        'x-request-id',
        String(req.headers['x-request-id']),
        'set-cookie',
        'a=1',
        'set-cookie',
        'b=2',
        'content-disposition',
        Buffer.from('attachment; filename="отчёт.csv"', 'utf8').toString('latin1'),
      ]);
      res.end('{"ok":true}');
    });
    const ask = (target: RunningService, origin: boolean) =>
      call(target, '/v1/header-probe', {
        headers: { 'x-request-id': 'client-req-0101', ...(origin ? { origin: ALLOWED_ORIGIN } : {}) },
      });

    for (const origin of [false, true]) {
      const forwarded = await ask(forwarding, origin);
      const handed = await ask(handing, origin);

      expect(handed.status).toBe(201);
      expect(handed.text).toBe(forwarded.text);
      expect(headersToCompare(handed.headers)).toEqual(headersToCompare(forwarded.headers));
      if (origin) expect(handed.headers['access-control-allow-origin']).toBe(ALLOWED_ORIGIN);
    }
    expect(handedOver).toBe(2);
  });

  it('refuses a declared body over the limit with the 413 a forwarded call gets, never reaching relay', async () => {
    const ask = (target: RunningService) =>
      call(target, '/v1/messages', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-request-id': 'client-req-0102' },
        body: Buffer.alloc(BODY_LIMIT + 1, 'x'),
      });

    const forwarded = await ask(forwarding);
    const handed = await ask(handing);

    expect(handed.status).toBe(413);
    expect(handed.text).toBe(forwarded.text);
    expect(JSON.parse(handed.text)).toMatchObject({ type: 'error', error: { type: expect.any(String) } });
    expect(headersToCompare(handed.headers)).toEqual(headersToCompare(forwarded.headers));
    expect(handed.headers.connection).toBe('close');
    expect(handedOver).toBe(0);
    expect(backends.relay.received).toHaveLength(0);
  });

  it('forwards a chunked body, counted: whole under the limit, the forwarded 413 over it', async () => {
    const ask = (target: RunningService, bytes: number) =>
      call(target, '/v1/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-request-id': 'client-req-0103' },
        body: chunkedBody(bytes, 'a'),
      });

    const under = await ask(handing, BODY_LIMIT - 10);
    expect(under.status).toBe(200);
    expect(backends.relay.received[0]!.body).toHaveLength(BODY_LIMIT - 10);
    expect(backends.relay.received[0]!.handedOver).toBeUndefined();

    const forwarded = await ask(forwarding, BODY_LIMIT * 4);
    const handed = await ask(handing, BODY_LIMIT * 4);
    expect(handed.status).toBe(413);
    expect(handed.text).toBe(forwarded.text);
    expect(headersToCompare(handed.headers)).toEqual(headersToCompare(forwarded.headers));
    expect(handedOver).toBe(0);
  });

  it('answers 502 in the caller’s protocol when relay’s handler throws', async () => {
    const response = await call(broken, '/v1/messages', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'client-req-0104' },
      body: '{}',
    });

    expect(response.status).toBe(502);
    expect(response.headers['x-request-id']).toBe('client-req-0104');
    expect(JSON.parse(response.text)).toMatchObject({
      type: 'error',
      error: { message: expect.stringContaining('relay') },
    });
  });

  it('lets relay see the client going away mid-stream: the response it writes to closes unfinished', async () => {
    const relayClosed = new Promise<boolean>((resolve) => {
      backends.relay.handlePath('/v1/endless-probe', (req, res: ServerResponse) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: first\n\n');
        const timer = setInterval(() => res.write('data: more\n\n'), 50);
        res.on('close', () => {
          clearInterval(timer);
          resolve(res.writableFinished);
        });
        req.resume();
      });
    });

    await readFirstChunkThenHangUp(`${handing.url}/v1/endless-probe`);

    expect(await relayClosed).toBe(false);
    expect(handedOver).toBe(1);
  });

  it('keeps the client’s connection for its next call after a handed-over answer', async () => {
    const agent = new HttpAgent({ keepAlive: true, maxSockets: 1 });
    const reused: boolean[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        const status = await new Promise<number>((resolve, reject) => {
          const req = httpRequest(`${handing.url}/v1/models`, { agent }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          });
          req.on('error', reject);
          req.end(() => reused.push(req.reusedSocket));
        });
        expect(status).toBe(200);
      }
    } finally {
      agent.destroy();
    }
    expect(reused).toEqual([false, true, true]);
    expect(handedOver).toBe(3);
  });

  it('observes its overhead of each handed-over call in /metrics', async () => {
    const relayCount = async () => {
      const metrics = await call(handing, '/metrics');
      const line = /tollgate_gateway_overhead_seconds_count\{[^}]*route="relay"[^}]*\} (\d+)/.exec(
        metrics.text,
      );
      return Number(line?.[1] ?? 0);
    };
    const before = await relayCount();

    await call(handing, '/v1/models');
    await call(handing, '/v1/models');

    expect((await relayCount()) - before).toBe(2);
  });
});
