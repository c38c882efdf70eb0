import { once } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errors } from 'undici';
import { FreeListPool } from './free-list-pool';

/** A real server that holds every answer until the test ends it, and counts its connections. */
class HoldingServer {
  readonly held: { path: string; res: ServerResponse }[] = [];
  connections = 0;
  private server: Server | undefined;
  private arrivals: (() => void)[] = [];
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      this.held.push({ path: req.url ?? '', res });
      this.arrivals.shift()?.();
    });
    this.server.on('connection', () => this.connections++);
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Resolves once `count` requests in all have arrived. */
  async arrived(count: number): Promise<void> {
    while (this.held.length < count) await new Promise<void>((resolve) => this.arrivals.push(resolve));
  }

  answer(index: number, body: string): void {
    this.held[index]!.res.end(body);
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

const text = async (pool: FreeListPool, path: string): Promise<string> => {
  const { body } = await pool.request({ method: 'GET', path });
  return body.text();
};

/** Lets a connection whose answer ended say it is free again ('drain' comes a tick after the end). */
const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('FreeListPool', () => {
  let server: HoldingServer;
  let pool: FreeListPool;

  beforeEach(async () => {
    server = new HoldingServer();
    await server.start();
  });

  afterEach(async () => {
    await pool.destroy();
    await server.stop().catch(() => undefined);
  });

  it('gives each call in flight a connection of its own and reuses a connection once its answer ended', async () => {
    pool = new FreeListPool(server.url, { connections: 10, pipelining: 1 });
    const answers = ['/a', '/b', '/c'].map((path) => text(pool, path));
    await server.arrived(3);
    expect(server.connections).toBe(3);
    server.answer(1, 'b');
    expect(await answers[1]).toBe('b');
    await settled();

    const next = text(pool, '/d');
    await server.arrived(4);
    expect(server.held[3]!.path).toBe('/d');
    expect(server.connections).toBe(3);
    server.answer(3, 'd');
    server.answer(0, 'a');
    server.answer(2, 'c');
    expect(await Promise.all([next, answers[0], answers[2]])).toEqual(['d', 'a', 'c']);
  });

  it('keeps calls beyond its connections waiting, in order, until a connection is free', async () => {
    pool = new FreeListPool(server.url, { connections: 2, pipelining: 1 });
    const drained = once(pool, 'drain');
    const answers = ['/1', '/2', '/3', '/4'].map((path) => text(pool, path));
    await server.arrived(2);
    expect(server.held.map((h) => h.path)).toEqual(['/1', '/2']);

    server.answer(1, 'two');
    await server.arrived(3);
    expect(server.held[2]!.path).toBe('/3');
    server.answer(0, 'one');
    await server.arrived(4);
    expect(server.held[3]!.path).toBe('/4');
    expect(server.connections).toBe(2);

    server.answer(2, 'three');
    server.answer(3, 'four');
    expect(await Promise.all(answers)).toEqual(['one', 'two', 'three', 'four']);
    await drained;
  });

  it('lets the calls it holds finish when closed, and refuses new ones', async () => {
    pool = new FreeListPool(server.url, { connections: 1, pipelining: 1 });
    const first = text(pool, '/first');
    const waiting = text(pool, '/waiting');
    await server.arrived(1);
    const closed = pool.close();
    await expect(text(pool, '/late')).rejects.toBeInstanceOf(errors.ClientClosedError);

    server.answer(0, 'first');
    await server.arrived(2);
    server.answer(1, 'waiting');
    expect(await Promise.all([first, waiting])).toEqual(['first', 'waiting']);
    await closed;
  });

  it('reports a connection that could not be made to its call, and connects again for the next', async () => {
    pool = new FreeListPool(server.url, { connections: 1, pipelining: 1 });
    const url = server.url;
    await server.stop();
    await expect(text(pool, '/nobody')).rejects.toMatchObject({ code: 'ECONNREFUSED' });

    // The same port again: the pool's next call opens a new connection.
    const port = Number(new URL(url).port);
    const again = createServer((_req, res) => res.end('back'));
    again.listen(port, '127.0.0.1');
    await once(again, 'listening');
    try {
      expect(await text(pool, '/again')).toBe('back');
    } finally {
      again.closeAllConnections();
      await new Promise((resolve) => again.close(resolve));
    }
  });
});
