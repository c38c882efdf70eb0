import type { EventEmitter } from 'node:events';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { LISTEN_BACKLOG } from '@tollgate/platform';

/** A loopback port nothing listens on right now (another process may still take it first). */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port!;
}

/**
 * `count` distinct loopback ports nothing listens on right now. All are held open until every one is
 * found: ports asked for one after another may come back the same once the first is released.
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => createServer());
  try {
    await Promise.all(servers.map((server) => listen(server, '127.0.0.1')));
    return servers.map((server) => (server.address() as AddressInfo).port);
  } finally {
    await Promise.all(servers.map(close));
  }
}

interface HeldPort {
  server: Server;
  /** Connections that arrived before a server took the port over; handed to that server. */
  waiting: Socket[];
}

const heldPorts = new Map<number, HeldPort>();

/**
 * Binds `count` ports on `host` and holds them, listening, until a server of this process takes one
 * over (`takeHeldPort`): unlike a probed port, no other program can bind it in between. Embedded mode
 * holds every service's port before starting any, since services are given each other's URLs.
 * A connection arriving meanwhile waits, and is served once its server has taken the port.
 * `port` asks for that one port (`count` 1) instead of any free one.
 */
export async function holdPorts(count: number, host = '127.0.0.1', port = 0): Promise<number[]> {
  if (port !== 0 && count !== 1) throw new Error('a port asked for by number is held alone');
  const held = Array.from({ length: count }, () => {
    const port: HeldPort = { server: createServer({ pauseOnConnect: true }), waiting: [] };
    port.server.on('connection', (socket) => port.waiting.push(socket));
    return port;
  });
  try {
    await Promise.all(held.map(({ server }) => listen(server, host, port)));
  } catch (error) {
    await Promise.all(held.map(({ server }) => close(server)));
    throw error;
  }
  return held.map((port) => {
    const { port: number } = port.server.address() as AddressInfo;
    heldPorts.set(number, port);
    return number;
  });
}

export interface HeldPortTakeover {
  /**
   * What to pass to `server.listen()` (as Fastify's listen options, which it hands on): Node then
   * listens on the held socket itself, as `server.listen(handle)` documents for "anything with an
   * underlying `_handle`", instead of binding the port again.
   */
  listenOptions: { _handle: unknown; host: string; port: number };
  /** Call once the server listens: the connections that arrived meanwhile are handed to it. */
  adopted(server: EventEmitter): void;
}

/** Takes over a port `holdPorts` holds in this process, or undefined if it holds none by that number. */
export function takeHeldPort(port: number): HeldPortTakeover | undefined {
  const held = heldPorts.get(port);
  if (!held) return undefined;
  heldPorts.delete(port);
  const { address } = held.server.address() as AddressInfo;
  // From here the socket belongs to the server that listens on it: closing `held.server` would close it.
  const handle = (held.server as unknown as { _handle: { listen(backlog: number): number } })._handle;
  return {
    listenOptions: { _handle: handle, host: address, port },
    adopted: (server) => {
      // Listening on a handle, Node takes the backlog from listen()'s positional arguments only and
      // re-listens at its default of 511; listen(2) again on the same socket sets the queue back.
      const failed = handle.listen(LISTEN_BACKLOG);
      if (failed) throw new Error(`could not set the accept queue of port ${port} (uv error ${failed})`);
      for (const socket of held.waiting.splice(0)) {
        server.emit('connection', socket);
        socket.resume();
      }
    },
  };
}

/** Closes held ports nobody took over (a start that failed half-way); taken ones are left alone. */
export async function releaseHeldPorts(ports: readonly number[]): Promise<void> {
  await Promise.all(
    ports.map(async (port) => {
      const held = heldPorts.get(port);
      if (!held) return;
      heldPorts.delete(port);
      for (const socket of held.waiting.splice(0)) socket.destroy();
      await close(held.server);
    }),
  );
}

function listen(server: Server, host: string, port = 0): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    // A held port queues connections for its service from the start (holdPorts), at the service's backlog.
    server.listen({ port, host, backlog: LISTEN_BACKLOG }, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
}
