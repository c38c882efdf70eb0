import { once } from 'node:events';
import { Agent, request, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { recordSocketWriteCalls, recordSocketWrites } from '@tollgate/testing';
import { ClientGoneError } from '../pipeline/client-reply';
import { FastifyClientReply } from './fastify-client-reply';

let app: FastifyInstance;
let serve: (client: FastifyClientReply, reply: FastifyReply) => void;
/** What the server's socket was asked to send, one entry per system call's worth. */
let socketWrites: string[];
/** What the server's socket was handed, one entry per `socket.write` call of the response. */
let socketWriteCalls: string[];
let connections = 0;
const finished: string[] = [];

beforeAll(async () => {
  app = Fastify();
  app.addHook('onRequest', (_request, reply, done) => {
    void reply.header('x-request-id', 'req-7');
    done();
  });
  // Access log and metrics run here: a stream written past Fastify must still reach them.
  app.addHook('onResponse', (request, reply, done) => {
    finished.push(`${request.url} ${reply.statusCode}`);
    done();
  });
  app.get('/stream', (req, reply) => {
    socketWrites = recordSocketWrites(req.raw.socket as Socket);
    socketWriteCalls = recordSocketWriteCalls(req.raw.socket as Socket);
    serve(new FastifyClientReply(reply), reply);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  app.server.on('connection', () => connections++);
});

afterAll(async () => {
  await app.close();
});

function get(agent: Agent | false = false): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    request(
      { host: '127.0.0.1', port: (app.server.address() as AddressInfo).port, path: '/stream', agent },
      resolve,
    )
      .on('error', reject)
      .end();
  });
}

async function readAll(res: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of res) text += String(chunk);
  return text;
}

describe('FastifyClientReply streams', () => {
  it('sends status, headers, the chunks of one turn and the end in one write', async () => {
    serve = (client) => {
      client.setHeaders({ 'x-ratelimit-remaining-requests': '9' });
      client.startStream('text/event-stream; charset=utf-8');
      void client.write('data: one\n\n');
      void client.write('data: two\n\n');
      client.end();
    };

    const res = await get();

    expect(res.statusCode).toBe(200);
    expect(res.headers).toMatchObject({
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-request-id': 'req-7',
      'x-ratelimit-remaining-requests': '9',
    });
    expect(await readAll(res)).toBe('data: one\n\ndata: two\n\n');
    expect(socketWrites).toHaveLength(1);
    expect(socketWrites[0]).toMatch(
      /^HTTP\/1\.1 200 OK\r\n[\s\S]*data: one\n\n[\s\S]*data: two\n\n\r\n0\r\n\r\n$/,
    );
  });

  it('writes a later chunk at once, and the response still reaches the onResponse hooks', async () => {
    finished.length = 0;
    serve = (client) => {
      client.startStream('text/event-stream; charset=utf-8');
      void client.write('data: first\n\n');
      setImmediate(() => {
        void client.write('data: later\n\n').then(() => client.end());
      });
    };

    const res = await get();

    expect(await readAll(res)).toBe('data: first\n\ndata: later\n\n');
    expect(socketWrites.length).toBeGreaterThanOrEqual(2);
    await new Promise((resolve) => setImmediate(resolve));
    expect(finished).toEqual(['/stream 200']);
  });

  it('writes a later piece with its chunked framing in one socket write, and keeps the connection', async () => {
    serve = (client) => {
      client.startStream('text/event-stream; charset=utf-8');
      void client.write('data: first\n\n');
      setImmediate(() => {
        void client.write('data: later\n\n').then(() => client.end());
      });
    };
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const connectionsBefore = connections;

    const first = await readAll(await get(agent));
    const laterWrites = socketWriteCalls;
    const second = await readAll(await get(agent));
    agent.destroy();

    expect([first, second]).toEqual(['data: first\n\ndata: later\n\n', 'data: first\n\ndata: later\n\n']);
    // Not Node's four writes (size, CRLF, text, CRLF) for the piece.
    expect(laterWrites).toContain('d\r\ndata: later\n\n\r\n');
    expect(connections - connectionsBefore).toBe(1);
  });

  it('waits for a slow client to take what it was sent, and fails the write once it has left', async () => {
    let client: FastifyClientReply | undefined;
    const started = new Promise<void>((resolve) => {
      serve = (c) => {
        client = c;
        c.startStream('application/octet-stream');
        // The status goes out with the first bytes.
        void c.write('x');
        resolve();
      };
    });
    const res = await get();
    await started;
    res.pause();

    // Written until the socket's buffers are full: that write resolves only once the client reads on.
    const piece = 'x'.repeat(256 * 1024);
    let waiting: Promise<void> | undefined;
    for (let i = 0; i < 256 && waiting === undefined; i++) {
      let settled = false;
      const write = client!.write(piece).then(() => {
        settled = true;
      });
      await new Promise((resolve) => setImmediate(resolve));
      if (!settled) waiting = write;
    }
    expect(waiting).toBeDefined();
    res.resume();
    await waiting;

    res.destroy();
    await once(res, 'close');
    while (!client!.aborted) await new Promise((resolve) => setImmediate(resolve));
    await expect(client!.write('more')).rejects.toBeInstanceOf(ClientGoneError);
  });
});
