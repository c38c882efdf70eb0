import { Readable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { bodyBytesOf, registerJsonBodyParser } from './json-body-parser';

const BODY = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'Привет, 世界 👋' }] });

async function echoServer(): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(async (scope) => {
    registerJsonBodyParser(scope);
    scope.post('/echo', async (request) => ({
      declared: request.headers['content-length'] ?? null,
      bytes: bodyBytesOf(request),
      body: request.body,
    }));
  });
  return app;
}

describe('registerJsonBodyParser', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await echoServer();
  });
  afterAll(() => app.close());

  it('parses JSON and gives the declared Content-Length as the body size', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      payload: BODY,
    });
    const bytes = Buffer.byteLength(BODY);
    expect(res.json()).toEqual({ declared: String(bytes), bytes, body: JSON.parse(BODY) });
  });

  it('counts the UTF-8 bytes of a chunked body that declares no length', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      payload: Readable.from([Buffer.from(BODY).subarray(0, 10), Buffer.from(BODY).subarray(10)]),
    });
    expect(res.json()).toEqual({ declared: null, bytes: Buffer.byteLength(BODY), body: JSON.parse(BODY) });
  });

  it('keeps Fastify’s refusals of bad JSON and prototype poisoning', async () => {
    const post = (payload: string) =>
      app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload });
    expect((await post('{"model":')).statusCode).toBe(400);
    expect((await post('{"__proto__":{"admin":true}}')).statusCode).toBe(400);
  });

  it('takes a body-less POST that says it is JSON as no body (the route decides whether it needs one)', async () => {
    const empty = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
    });
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toMatchObject({ bytes: 0 });
  });
});
