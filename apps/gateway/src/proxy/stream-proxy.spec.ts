import { once } from 'node:events';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { arrivedBody } from './stream-proxy';

let server: Server;
let seen: (req: IncomingMessage) => void;
const responses: ServerResponse[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    responses.push(res);
    seen(req);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
});

afterEach(() => {
  for (const res of responses.splice(0)) res.end();
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** The request as the server has it one microtask after its headers, as the gateway's route does. */
function arriving(): Promise<IncomingMessage> {
  return new Promise((resolve) => {
    seen = (req) => void Promise.resolve().then(() => resolve(req));
  });
}

function post(headers: Record<string, string>) {
  const req = request({
    host: '127.0.0.1',
    port: (server.address() as AddressInfo).port,
    method: 'POST',
    path: '/v1/chat/completions',
    headers,
  });
  req.on('response', (res) => res.resume());
  return req;
}

describe('arrivedBody', () => {
  it('hands a body that arrived with its headers over as one Buffer, and lets the request end', async () => {
    const body = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'привет' }] });
    const received = arriving();
    post({ 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }).end(body);
    const req = await received;

    const taken = arrivedBody(req);

    expect(Buffer.isBuffer(taken)).toBe(true);
    expect((taken as Buffer).toString()).toBe(body);
    await once(req, 'end');
  });

  it('leaves a body still arriving as the stream, to be forwarded as it comes', async () => {
    const received = arriving();
    const client = post({ 'content-length': '10' });
    client.write('12345');
    const req = await received;

    const taken = arrivedBody(req) as Readable;

    expect(taken).toBe(req);
    client.end('67890');
    const chunks: Buffer[] = [];
    for await (const chunk of taken) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('1234567890');
  });

  it('leaves a body without a declared length (chunked) as the stream', async () => {
    const received = arriving();
    const client = post({ 'transfer-encoding': 'chunked' });
    client.end('whole');
    const req = await received;

    expect(arrivedBody(req)).toBe(req);
    req.resume();
  });
});
