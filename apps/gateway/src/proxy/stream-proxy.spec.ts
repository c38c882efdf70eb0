import { once } from 'node:events';
import {
  Agent,
  createServer,
  request,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { Pool } from 'undici';
import { recordSocketWriteCalls, recordSocketWrites } from '@tollgate/testing';
import { arrivedBody, proxyRequest } from './stream-proxy';

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

describe('proxyRequest with an event stream', () => {
  let backend: Server;
  let front: Server;
  let pool: Pool;
  let answer: (res: ServerResponse) => void;
  let clientWrites: string[];
  /** What the front's socket was handed, one entry per `socket.write` call of the response. */
  let socketWriteCalls: string[];
  let connections = 0;

  beforeAll(async () => {
    backend = createServer((_req, res) => answer(res));
    backend.listen(0, '127.0.0.1');
    await once(backend, 'listening');
    pool = new Pool(`http://127.0.0.1:${(backend.address() as AddressInfo).port}`);
    front = createServer((req, res) => {
      clientWrites = recordSocketWrites(res.socket as Socket);
      socketWriteCalls = recordSocketWriteCalls(res.socket as Socket);
      void proxyRequest(
        pool,
        { method: 'GET', path: '/', headers: req.headers, body: null, addedHeaders: {}, requestId: 'r-1' },
        res,
      );
    });
    front.on('connection', () => connections++);
    front.listen(0, '127.0.0.1');
    await once(front, 'listening');
  });

  afterAll(async () => {
    await pool.close();
    backend.closeAllConnections();
    front.closeAllConnections();
    await Promise.all([
      new Promise((resolve) => backend.close(resolve)),
      new Promise((resolve) => front.close(resolve)),
    ]);
  });

  function get(agent?: Agent): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      request({ host: '127.0.0.1', port: (front.address() as AddressInfo).port, path: '/', agent }, resolve)
        .on('error', reject)
        .end();
    });
  }

  async function readAll(res: IncomingMessage): Promise<string> {
    let text = '';
    for await (const chunk of res) text += String(chunk);
    return text;
  }

  it('sends the headers in one write with the first event that arrived with them', async () => {
    answer = (res) => {
      // Status, headers and the first event leave the backend in one write (Node corks them).
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n');
      setImmediate(() => res.end('data: [DONE]\n\n'));
    };

    const res = await get();

    expect(await readAll(res)).toBe('data: first\n\ndata: [DONE]\n\n');
    expect(clientWrites[0]).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\n[\s\S]*data: first\n\n/);
  });

  it('sends the headers at once when no event came with them', async () => {
    let clientHasHeaders: () => void = () => undefined;
    const headersSeen = new Promise<void>((resolve) => (clientHasHeaders = resolve));
    answer = (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      // The first event only once the client has the headers: it never would, were they held back.
      void headersSeen.then(() => res.end('data: late\n\n'));
    };

    const res = await get();
    clientHasHeaders();

    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(await readAll(res)).toBe('data: late\n\n');
  });

  it('forwards each later event to the client in one socket write, and keeps the connection for the next call', async () => {
    let clientHasFirst: () => void = () => undefined;
    answer = (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n');
      // The next event only once the client has the first: it arrives at the gateway in a read of its own.
      clientHasFirst = () => res.end('data: second\n\n');
    };
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const connectionsBefore = connections;

    const bodies: string[] = [];
    for (let call = 0; call < 2; call++) {
      const res = await get(agent);
      let text = '';
      for await (const chunk of res) {
        text += String(chunk);
        if (text === 'data: first\n\n') clientHasFirst();
      }
      bodies.push(text);
    }
    agent.destroy();

    expect(bodies).toEqual(['data: first\n\ndata: second\n\n', 'data: first\n\ndata: second\n\n']);
    // Chunked framing and the event in one write, not Node's four (size, CRLF, event, CRLF).
    expect(socketWriteCalls).toContain('e\r\ndata: second\n\n\r\n');
    expect(connections - connectionsBefore).toBe(1);
  });
});
