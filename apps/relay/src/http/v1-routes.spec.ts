import { Agent as HttpAgent, createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { ApiProtocol } from '@tollgate/contracts';
import { createLogger } from '@tollgate/platform';
import { markHandedOver } from '@tollgate/runtime/main';
import Fastify, { type FastifyInstance } from 'fastify';
import type { HotPath } from '../composition';
import type { ChatClientProtocol } from '../dialects/chat-client-protocol';
import type { CallContext } from '../pipeline/call-context';
import type { ClientReply } from '../pipeline/client-reply';
import { registerV1Routes } from './v1-routes';

const LIMIT = 1024;

/** What a chat call was handed: its body, its size and the ids of its context. */
interface Seen {
  protocol: string;
  body: unknown;
  bytes: number;
  requestId: string;
  correlationId: string;
}

/**
 * The /v1 routes on a Fastify with a small body limit and a hot path whose chat call echoes what it was
 * given: how a body reaches a call, and how a body that cannot reach one is refused.
 */
async function relayRoutes(): Promise<{ app: FastifyInstance; seen: Seen[]; clientIps: string[] }> {
  const seen: Seen[] = [];
  const clientIps: string[] = [];
  const app = Fastify({ bodyLimit: LIMIT });
  const hot = {
    isCaughtUp: () => true,
    access: {
      authenticate: (_key: string, clientIp: string) => {
        clientIps.push(clientIp);
        return {};
      },
    },
    chat: {
      async handle(
        context: CallContext,
        protocol: ChatClientProtocol,
        input: { body: unknown },
        bytes: number,
        client: ClientReply,
      ) {
        seen.push({
          protocol: protocol.protocol,
          body: input.body,
          bytes,
          requestId: context.requestId,
          correlationId: context.correlationId,
        });
        client.sendJson(200, { ok: true });
      },
    },
  } as unknown as HotPath;
  registerV1Routes(app, {
    hotPath: () => hot,
    logger: createLogger({ service: 'relay', level: 'silent' }),
    refused: () => undefined,
    internalTokenSecret: 'x'.repeat(32),
  });
  await app.ready();
  return { app, seen, clientIps };
}

const PATHS: Record<ApiProtocol, string> = {
  openai: '/v1/chat/completions',
  anthropic: '/v1/messages',
  gemini: '/v1beta/models/m:generateContent',
};

/** Each protocol's error body, as its clients read it. */
function errorMessageOf(protocol: ApiProtocol, body: { error: { message: string } }): string {
  if (protocol === 'anthropic') {
    expect(body).toMatchObject({ type: 'error', error: { type: expect.any(String) } });
    return body.error.message;
  }
  if (protocol === 'gemini') {
    expect(body).toMatchObject({ error: { code: expect.any(Number), status: expect.any(String) } });
    return body.error.message;
  }
  expect(body).toMatchObject({ error: { type: expect.any(String) } });
  return body.error.message;
}

const BODY = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'Привет, 世界 👋' }] });

describe('registerV1Routes: bodies', () => {
  let app: FastifyInstance;
  let seen: Seen[];
  beforeEach(async () => {
    ({ app, seen } = await relayRoutes());
  });
  afterEach(() => app.close());

  const post = (path: string, payload: string | Readable | undefined, headers: Record<string, string>) =>
    app.inject({ method: 'POST', url: path, headers: { authorization: 'Bearer sk-x', ...headers }, payload });

  it.each(Object.entries(PATHS) as [ApiProtocol, string][])(
    "hands the %s call its parsed body and its Content-Length, with its request's ids",
    async (protocol, path) => {
      const res = await post(path, BODY, {
        'content-type': 'application/json',
        'x-correlation-id': 'flow-42',
      });
      expect(res.statusCode).toBe(200);
      expect(seen).toEqual([
        {
          protocol,
          body: JSON.parse(BODY),
          bytes: Buffer.byteLength(BODY),
          requestId: expect.any(String),
          correlationId: 'flow-42',
        },
      ]);
    },
  );

  it('hands a call that names no correlation id its request id as both ids', async () => {
    const res = await post(PATHS.openai, BODY, { 'content-type': 'application/json' });
    expect(res.statusCode).toBe(200);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.requestId).toEqual(expect.any(String));
    expect(seen[0]!.correlationId).toBe(seen[0]!.requestId);
  });

  it('hands a call whose correlation id is not a sane id its request id as both ids', async () => {
    const res = await post(PATHS.openai, BODY, {
      'content-type': 'application/json',
      'x-correlation-id': 'not a sane id',
    });
    expect(res.statusCode).toBe(200);
    expect(seen[0]!.correlationId).toBe(seen[0]!.requestId);
  });

  it.each([
    'application/json; charset=utf-8',
    'Application/JSON',
    // Not read by the relay's own reader: Fastify's parser, with the same result.
    'application/json; charset=utf-8; x=y',
  ])('parses a body sent as %s', async (contentType) => {
    const res = await post(PATHS.openai, BODY, { 'content-type': contentType });
    expect(res.statusCode).toBe(200);
    expect(seen).toMatchObject([{ body: JSON.parse(BODY), bytes: Buffer.byteLength(BODY) }]);
  });

  it('counts the UTF-8 bytes of a chunked body that declares no length', async () => {
    const bytes = Buffer.from(BODY);
    const res = await post(PATHS.openai, Readable.from([bytes.subarray(0, 10), bytes.subarray(10)]), {
      'content-type': 'application/json',
      'transfer-encoding': 'chunked',
    });
    expect(res.statusCode).toBe(200);
    expect(seen).toMatchObject([{ body: JSON.parse(BODY), bytes: bytes.length }]);
  });

  it.each(Object.entries(PATHS) as [ApiProtocol, string][])(
    'answers 413 in the %s shape to a body over the limit, declared or counted, and closes the connection',
    async (protocol, path) => {
      const big = JSON.stringify({ model: 'm', pad: 'x'.repeat(LIMIT) });
      const declared = await post(path, big, { 'content-type': 'application/json' });
      const chunked = await post(path, Readable.from([big.slice(0, 100), big.slice(100)]), {
        'content-type': 'application/json',
        'transfer-encoding': 'chunked',
      });
      for (const res of [declared, chunked]) {
        expect(res.statusCode).toBe(413);
        expect(res.headers.connection).toBe('close');
        expect(errorMessageOf(protocol, res.json())).toBe('The request body is too large');
      }
      expect(seen).toEqual([]);
    },
  );

  it.each(Object.entries(PATHS) as [ApiProtocol, string][])(
    'answers 400 in the %s shape to malformed JSON and to prototype poisoning',
    async (protocol, path) => {
      for (const payload of [
        '{"model":',
        '{"__proto__":{"admin":true}}',
        '{"constructor":{"prototype":{}}}',
      ]) {
        const res = await post(path, payload, { 'content-type': 'application/json' });
        expect(res.statusCode).toBe(400);
        expect(errorMessageOf(protocol, res.json())).toMatch(/^Invalid request: /);
      }
      expect(seen).toEqual([]);
    },
  );

  it('takes a body-less POST, with or without a JSON content type, as no body (the call decides)', async () => {
    const withType = await post(PATHS.openai, undefined, { 'content-type': 'application/json' });
    const blank = await post(PATHS.openai, '  \n', { 'content-type': 'application/json' });
    const withoutType = await post(PATHS.openai, undefined, {});
    expect([withType.statusCode, blank.statusCode, withoutType.statusCode]).toEqual([200, 200, 200]);
    expect(seen.map((s) => s.body)).toEqual([undefined, undefined, undefined]);
  });

  it("names an Anthropic call's request in request-id, as Anthropic's API does for its SDKs; other protocols' not", async () => {
    const answered = await post(PATHS.anthropic, BODY, { 'content-type': 'application/json' });
    const refused = await post(PATHS.anthropic, '{"model":', { 'content-type': 'application/json' });
    const openAi = await post(PATHS.openai, BODY, { 'content-type': 'application/json' });

    expect(answered.headers['request-id']).toBe(seen[0]!.requestId);
    expect(refused.statusCode).toBe(400);
    expect(refused.headers['request-id']).toEqual(expect.any(String));
    expect(openAi.headers['request-id']).toBeUndefined();
  });

  it('refuses a body of another content type with 415 in the caller’s shape', async () => {
    const res = await post(PATHS.anthropic, '<a/>', { 'content-type': 'application/xml' });
    expect(res.statusCode).toBe(415);
    expect(errorMessageOf('anthropic', res.json())).toMatch(
      /^Invalid request: .*send the body as JSON with Content-Type: application\/json/,
    );
    expect(seen).toEqual([]);
  });
});

describe('registerV1Routes: a request another server of the process hands over', () => {
  let app: FastifyInstance;
  let seen: Seen[];
  let clientIps: string[];
  let front: Server;
  /** Whether the front server (the gateway's stand-in) marks what it hands over with its client. */
  let marks: boolean;

  beforeEach(async () => {
    ({ app, seen, clientIps } = await relayRoutes());
    marks = true;
    front = createServer((req, res) => {
      if (marks) markHandedOver(req, { ip: '203.0.113.7', protocol: 'https' });
      app.server.emit('request', req, res);
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  });
  afterEach(async () => {
    front.closeAllConnections();
    await new Promise((resolve) => front.close(resolve));
    await app.close();
  });

  const keepAlive = new HttpAgent({ keepAlive: true });
  afterAll(() => keepAlive.destroy());

  /** A POST to the front server: its status and its Connection header. */
  function post(body: string, headers: Record<string, string> = {}) {
    return new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
      const req = httpRequest(
        `http://127.0.0.1:${(front.address() as AddressInfo).port}${PATHS.openai}`,
        {
          method: 'POST',
          agent: keepAlive,
          headers: {
            authorization: 'Bearer sk-x',
            'content-type': 'application/json',
            'x-forwarded-for': '6.6.6.6',
            ...headers,
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  it('authenticates with the client address the handing server resolved, not its own reading', async () => {
    expect((await post(BODY)).status).toBe(200);
    marks = false;
    expect((await post(BODY)).status).toBe(200);

    expect(clientIps).toEqual(['203.0.113.7', '127.0.0.1']);
    expect(seen).toHaveLength(2);
  });

  it('keeps the client connection after a body read whole that is not JSON; closes it after one left unread', async () => {
    const malformed = await post('{"model":');
    const tooLarge = await post(JSON.stringify({ model: 'm', pad: 'x'.repeat(LIMIT) }));

    expect(malformed).toEqual({ status: 400, connection: 'keep-alive' });
    expect(tooLarge).toEqual({ status: 413, connection: 'close' });
    expect(seen).toEqual([]);
  });
});
