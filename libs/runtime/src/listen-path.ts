import { chmod, unlink } from 'node:fs/promises';
import type { Server as HttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { isAbsolute } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { probeSocketLock } from './socket-lock';
import type { Env } from './service-runtime';

const DRAIN_CHECK_MS = 20;

/** Linux's sun_path holds 108 bytes, the terminating NUL included. */
export const LISTEN_PATH_MAX_BYTES = 107;

/**
 * LISTEN_PATH: a Unix socket the service listens on as well as its TCP port (the launcher's
 * gateway→relay hop on one host, see bench/ANALYSIS.md H57). Undefined when unset or empty; throws,
 * naming the variable, when it is not an absolute path that fits a socket address.
 */
export function listenPathFromEnv(env: Env): string | undefined {
  const path = env.LISTEN_PATH;
  if (!path) return undefined;
  if (!isAbsolute(path)) throw new Error(`LISTEN_PATH: must be an absolute path, got "${path}"`);
  const bytes = Buffer.byteLength(path);
  if (bytes > LISTEN_PATH_MAX_BYTES)
    throw new Error(
      `LISTEN_PATH: a socket path holds at most ${LISTEN_PATH_MAX_BYTES} bytes, "${path}" has ${bytes}`,
    );
  return path;
}

/**
 * Removes the socket file a process that died left at `path` (nobody accepts on it), so that listening
 * there does not fail with EADDRINUSE; leaves a missing one alone, and refuses one a live process
 * listens on: two services on one socket would take each other's calls. Run once per service, before
 * any worker listens (a cluster's workers share their primary's listening socket, which the check
 * would see as live).
 */
export async function clearStaleSocket(path: string): Promise<void> {
  const state = await probeSocketLock(path);
  if (state === 'held') throw new Error(`LISTEN_PATH: another process listens on ${path}`);
  if (state === 'stale')
    await unlink(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
}

/** A second listener of a service's HTTP server (see listenOnPath). */
export interface PathListener {
  readonly path: string;
  /** Stops accepting (the socket file goes); connections already open stay (see drain). */
  stopAccepting(): Promise<void>;
  /**
   * Waits, at most `timeoutMs`, for the connections still open to finish what they serve: idle ones
   * are closed as they become idle. The HTTP server's close does not wait for them (see listenOnPath),
   * and a call cut there would be a call served without its usage event.
   */
  drain(timeoutMs: number): Promise<void>;
  /** Destroys the connections still open (after the HTTP server's own close). */
  destroyConnections(): void;
}

/**
 * Listens on the Unix socket `path` and hands each connection to `httpServer` as one it accepted, so
 * that its parser, timeouts, keep-alive and request handler (Fastify's) serve it as they serve a TCP
 * one. The socket file is made readable and writable by its owner only (0600): connecting needs write
 * permission, and the directory it is in should be private too. The HTTP server's close does not wait
 * for these connections (it counts only those it accepted), so the service destroys what is left once
 * it has closed, as it does for in-memory ones.
 */
export async function listenOnPath(httpServer: HttpServer, path: string): Promise<PathListener> {
  const open = new Set<Socket>();
  const server: Server = createServer((socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    httpServer.emit('connection', socket);
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(path, () => {
      server.off('error', fail);
      done();
    });
  });
  try {
    await chmod(path, 0o600);
  } catch (error) {
    await new Promise<void>((done) => server.close(() => done()));
    throw error;
  }
  return {
    path,
    // Closing the listening handle removes the socket file at once. Not waiting for close's callback:
    // it comes when every connection has ended, and an idle keep-alive one ends only at its timeout.
    stopAccepting: async () => {
      if (server.listening) server.close();
    },
    drain: async (timeoutMs) => {
      const deadline = Date.now() + timeoutMs;
      while (open.size > 0 && Date.now() < deadline) {
        // The HTTP server tracks these connections' parsers too: this closes those between requests.
        httpServer.closeIdleConnections();
        if (open.size > 0) await delay(DRAIN_CHECK_MS);
      }
    },
    destroyConnections: () => {
      for (const socket of open) socket.destroy();
    },
  };
}
