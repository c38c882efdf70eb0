import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { Pool } from 'undici';
import { InMemorySocket } from './in-memory-socket';

/** Everything `socket` reads until its end of input (without destroying it, as `for await` would). */
function readAll(socket: InMemorySocket): Promise<string> {
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  return once(socket, 'end').then(() => Buffer.concat(chunks).toString());
}

function errorOf(socket: InMemorySocket): Promise<NodeJS.ErrnoException> {
  return once(socket, 'error').then(([error]) => error as NodeJS.ErrnoException);
}

describe('InMemorySocket.pair', () => {
  it('carries bytes both ways, in order', async () => {
    const [client, server] = InMemorySocket.pair();
    const atServer = readAll(server);
    const atClient = readAll(client);
    client.write('GET / ');
    client.end('HTTP/1.1\r\n\r\n');
    server.write('HTTP/1.1 200 OK');
    server.end('\r\n\r\n');
    expect(await atServer).toBe('GET / HTTP/1.1\r\n\r\n');
    expect(await atClient).toBe('HTTP/1.1 200 OK\r\n\r\n');
    expect(client.bytesWritten).toBe(server.bytesRead);
    expect(server.bytesWritten).toBe(client.bytesRead);
  });

  it('end() half-closes: the other end reads the data and its end, and can still answer', async () => {
    const [client, server] = InMemorySocket.pair();
    const closed = Promise.all([once(client, 'close'), once(server, 'close')]);
    client.end('request');
    expect(await readAll(server)).toBe('request');
    expect(server.writable).toBe(true);
    const answer = readAll(client);
    server.end('answer');
    expect(await answer).toBe('answer');
    await closed;
  });

  it.each([
    ['client', 0],
    ['server', 1],
  ] as const)(
    "destroy() on the %s's end ends the other's input after what it had received, and fails its next write",
    async (_name, index) => {
      const pair = InMemorySocket.pair();
      const closing = pair[index];
      const other = pair[1 - index]!;
      // Not events.once: it would reject on the 'error' this test expects.
      const closed = new Promise((resolve) => other.once('close', resolve));
      closing.write('last words');
      closing.destroy();
      expect(await readAll(other)).toBe('last words');
      const error = errorOf(other);
      other.write('anyone there?');
      expect((await error).code).toBe('EPIPE');
      await closed;
      expect(other.destroyed).toBe(true);
    },
  );

  it('fails a write the other end had not read yet when it is destroyed', async () => {
    const [client, server] = InMemorySocket.pair();
    server.pause();
    const error = errorOf(client);
    // Past the reader's buffer: this write waits for a read that never comes.
    client.write(Buffer.alloc(64 * 1024));
    client.write(Buffer.alloc(64 * 1024));
    server.destroy();
    expect((await error).code).toBe('EPIPE');
  });

  it('holds the writer back while the reader does not read, and lets it go on when it reads', async () => {
    const [client, server] = InMemorySocket.pair();
    server.pause();
    const chunk = Buffer.alloc(16 * 1024, 1);
    for (let i = 0; i < 20; i++) client.write(chunk);
    for (let turn = 0; turn < 10; turn++) await new Promise(setImmediate);
    // The reader took about one buffer's worth; the rest waits at the writer.
    expect(server.readableLength).toBeGreaterThan(0);
    expect(server.readableLength).toBeLessThanOrEqual(2 * chunk.length);
    expect(client.writableLength).toBeGreaterThanOrEqual(18 * chunk.length);
    const drained = once(client, 'drain');
    let received = 0;
    server.on('data', (data: Buffer) => (received += data.length));
    server.resume();
    await drained;
    client.end();
    await once(server, 'end');
    expect(received).toBe(20 * chunk.length);
  });

  it('delivers in a later turn of the event loop, never within the write', async () => {
    const [client, server] = InMemorySocket.pair();
    const seen: string[] = [];
    server.on('data', () => seen.push('data'));
    client.write('x');
    await Promise.resolve();
    seen.push('microtasks done');
    await new Promise(setImmediate);
    expect(seen).toEqual(['microtasks done', 'data']);
    client.destroy();
  });

  it("setTimeout emits 'timeout' after the idle time, restarted by traffic, and 0 turns it off", () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    try {
      const [client, server] = InMemorySocket.pair();
      server.resume();
      const timeouts: string[] = [];
      client.on('timeout', () => timeouts.push('client'));
      client.setTimeout(1000);
      jest.advanceTimersByTime(900);
      client.write('still here');
      jest.advanceTimersByTime(900);
      expect(timeouts).toEqual([]);
      jest.advanceTimersByTime(200);
      expect(timeouts).toEqual(['client']);
      client.setTimeout(0);
      jest.advanceTimersByTime(5000);
      expect(timeouts).toEqual(['client']);
      client.destroy();
    } finally {
      jest.useRealTimers();
    }
  });
});

/**
 * The hop as embedded mode uses it: undici's Pool writes HTTP/1.1 into one end, Node's HTTP server
 * (never listening here) serves the other end as an accepted connection.
 */
describe('HTTP/1.1 through an in-memory pair', () => {
  let server: Server;
  let pool: Pool;
  let connections: number;
  let serverEnds: InMemorySocket[];
  let handler: (req: IncomingMessage, res: ServerResponse) => void;

  beforeEach(() => {
    connections = 0;
    serverEnds = [];
    server = createServer((req, res) => handler(req, res));
    pool = new Pool('http://relay.internal', {
      connections: 4,
      pipelining: 1,
      connect: (_options, callback) => {
        const [client, end] = InMemorySocket.pair();
        connections++;
        serverEnds.push(end);
        server.emit('connection', end);
        // As a TCP connection would: undici does not take a socket handed over synchronously.
        process.nextTick(callback, null, client);
      },
    });
  });
  afterEach(async () => {
    await pool.destroy();
    server.closeAllConnections();
  });

  it('answers calls plainly and with a streamed request and answer of over 64 KiB', async () => {
    handler = (req, res) => {
      let size = 0;
      req.on('data', (chunk: Buffer) => (size += chunk.length));
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/plain', 'x-size': String(size) });
        for (let i = 0; i < 10; i++) res.write(Buffer.alloc(10 * 1024, 97));
        res.end('!');
      });
    };
    const plain = await pool.request({ path: '/v1/models', method: 'GET' });
    expect(plain.statusCode).toBe(200);
    expect((await plain.body.text()).length).toBe(100 * 1024 + 1);

    async function* upload() {
      for (let i = 0; i < 20; i++) yield Buffer.alloc(8 * 1024, 98);
    }
    const streamed = await pool.request({ path: '/v1/audio', method: 'POST', body: Readable.from(upload()) });
    expect(streamed.headers['x-size']).toBe(String(160 * 1024));
    expect((await streamed.body.text()).endsWith('!')).toBe(true);
  });

  it("closes the server's request when the client aborts mid-answer", async () => {
    let serverSawClose!: () => void;
    const closed = new Promise<void>((resolve) => (serverSawClose = resolve));
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n');
      res.on('close', () => serverSawClose());
    };
    const abort = new AbortController();
    const answer = await pool.request({ path: '/v1/chat', method: 'POST', body: '{}', signal: abort.signal });
    const first = await new Promise<Buffer>((resolve) => answer.body.once('data', resolve));
    expect(first.toString()).toBe('data: first\n\n');
    abort.abort();
    await closed;
  });

  it('fails the call in flight when the server closes its connection, and opens a new one for the next', async () => {
    handler = (req, res) => {
      if (req.url === '/hang') {
        res.writeHead(200);
        res.write('partial');
        setImmediate(() => req.socket.destroy());
        return;
      }
      res.end('fine');
    };
    const hanging = await pool.request({ path: '/hang', method: 'GET' });
    await expect(hanging.body.text()).rejects.toThrow();
    const next = await pool.request({ path: '/ok', method: 'GET' });
    expect(await next.body.text()).toBe('fine');
    expect(connections).toBe(2);
  });

  it('closes an idle connection at both ends when keep-alive ends it, and the next call opens a new one', async () => {
    // Under a second: Node's server announces `Keep-Alive: timeout=0` and undici lets the connection go.
    server.keepAliveTimeout = 20;
    handler = (_req, res) => res.end('fine');
    const first = await pool.request({ path: '/one', method: 'GET' });
    expect(await first.body.text()).toBe('fine');
    const [idle] = serverEnds;
    if (!idle!.destroyed) await new Promise((resolve) => idle!.once('close', resolve));
    const second = await pool.request({ path: '/two', method: 'GET' });
    expect(await second.body.text()).toBe('fine');
    expect(connections).toBe(2);
  });
});
