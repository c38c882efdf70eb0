import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServiceCall } from '@tollgate/contracts';
import { z } from 'zod';
import { answerData, ServiceCaller } from './service-caller';
import { SERVICE_TOKEN_HEADER, verifyServiceToken } from './service-token';

const SECRET = 'a-test-secret-of-enough-length-for-hs256';
const GET_CALL = {
  method: 'GET',
  path: '/internal/things/:id',
  audience: 'test:things',
} as const satisfies ServiceCall;
const POST_CALL = {
  method: 'POST',
  path: '/internal/things',
  audience: 'test:new-thing',
} as const satisfies ServiceCall;

interface Seen {
  method: string;
  url: string;
  contentType: string | undefined;
  body: string;
  audienceOk: boolean;
}

describe('ServiceCaller', () => {
  let server: Server;
  let base: string;
  const seen: Seen[] = [];
  const delayed = new Set<NodeJS.Timeout>();
  let answer: (request: IncomingMessage) => { status: number; text: string; delayMs?: number };

  beforeAll(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const audience = request.method === 'GET' ? GET_CALL.audience : POST_CALL.audience;
        void verifyServiceToken(String(request.headers[SERVICE_TOKEN_HEADER] ?? ''), SECRET, audience)
          .then(
            () => true,
            () => false,
          )
          .then((audienceOk) => {
            seen.push({
              method: request.method ?? '',
              url: request.url ?? '',
              contentType: request.headers['content-type'],
              body: Buffer.concat(chunks).toString('utf8'),
              audienceOk,
            });
            const { status, text, delayMs = 0 } = answer(request);
            const timer = setTimeout(() => {
              delayed.delete(timer);
              response.writeHead(status, { 'content-type': 'application/json' });
              response.end(text);
            }, delayMs);
            delayed.add(timer);
          });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    for (const timer of delayed) clearTimeout(timer);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  beforeEach(() => {
    seen.length = 0;
    answer = () => ({ status: 200, text: '{"success":true,"message":"","data":{"n":1}}' });
  });

  it("fills the path, adds the query it is given, and signs for the call's own audience", async () => {
    const caller = new ServiceCaller(base, SECRET);
    const got = await caller.send(GET_CALL, {
      params: { id: 'a b/c' },
      query: { token_id: 7, skipped: undefined },
      timeoutMs: 5_000,
    });
    expect(got).toEqual({ status: 200, body: { success: true, message: '', data: { n: 1 } } });
    expect(seen).toEqual([
      {
        method: 'GET',
        url: '/internal/things/a%20b%2Fc?token_id=7',
        contentType: undefined,
        body: '',
        audienceOk: true,
      },
    ]);
  });

  it('sends a JSON body, and answers a non-JSON or empty answer with its status and no body', async () => {
    const caller = new ServiceCaller(base, SECRET);
    answer = () => ({ status: 502, text: '<html>bad gateway</html>' });
    const notJson = await caller.send(POST_CALL, { body: { name: 'x' }, timeoutMs: 5_000 });
    answer = () => ({ status: 204, text: '' });
    const empty = await caller.send(POST_CALL, { body: { name: 'y' }, timeoutMs: 5_000 });
    expect(notJson).toEqual({ status: 502, body: undefined });
    expect(empty).toEqual({ status: 204, body: undefined });
    expect(seen.map(({ contentType, body, audienceOk }) => ({ contentType, body, audienceOk }))).toEqual([
      { contentType: 'application/json', body: '{"name":"x"}', audienceOk: true },
      { contentType: 'application/json', body: '{"name":"y"}', audienceOk: true },
    ]);
  });

  it('rejects with a TimeoutError when the answer outlasts the timeout, and with the signal when it is cancelled', async () => {
    const caller = new ServiceCaller(base, SECRET);
    answer = () => ({ status: 200, text: '{}', delayMs: 2_000 });
    await expect(caller.send(GET_CALL, { params: { id: 1 }, timeoutMs: 50 })).rejects.toMatchObject({
      name: 'TimeoutError',
    });
    const cancel = new AbortController();
    const cancelled = caller.send(GET_CALL, { params: { id: 2 }, timeoutMs: 5_000, signal: cancel.signal });
    setTimeout(() => cancel.abort(), 20);
    await expect(cancelled).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('rejects when nothing listens at the address', async () => {
    const caller = new ServiceCaller('http://127.0.0.1:9', SECRET);
    await expect(caller.send(GET_CALL, { params: { id: 1 }, timeoutMs: 5_000 })).rejects.toThrow();
  });
});

describe('answerData', () => {
  const schema = z.object({ n: z.number() });

  it("reads an envelope's data, or a bare answer, and nothing else", () => {
    expect(answerData(schema, { success: true, message: '', data: { n: 2 } })).toEqual({ n: 2 });
    expect(answerData(schema, { n: 3 })).toEqual({ n: 3 });
    expect(answerData(schema, { success: true, data: { n: 'x' } })).toBeUndefined();
    expect(answerData(schema, undefined)).toBeUndefined();
    expect(answerData(schema, null)).toBeUndefined();
  });
});
