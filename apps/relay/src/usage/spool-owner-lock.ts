import { createConnection, createServer, type Server } from 'node:net';

/** A lock held by this process for as long as it lives: see {@link holdOwnerLock}. */
export interface OwnerLock {
  release(): Promise<void>;
}

/**
 * Marks a spool owner as alive, the way tools/launcher's `lockDataDir` marks a data directory in use:
 * a listening Unix socket, which the kernel closes when its holder exits however it exits (`kill -9`
 * included), where a pid file would outlive it and its pid be reused after a restart. Unlike the
 * launcher's, the socket is a file in the spool directory and never abstract, so that processes in
 * different containers sharing one volume on one host see each other's locks (an abstract socket
 * lives in its network namespace). Each owner has its own id, so the path is never contended.
 */
export async function holdOwnerLock(path: string): Promise<OwnerLock> {
  // A probe only needs the connection to open; nothing is said on it.
  const server = createServer((socket) => socket.destroy());
  await listen(server, path);
  // The lock must not keep the process alive on its own.
  server.unref();
  // Closing the server removes the socket file.
  return { release: () => new Promise<void>((done) => server.close(() => done())) };
}

/**
 * Whether the process that holds the lock at `path` is alive. A holder that closed its lock removed
 * the socket (ENOENT); one that died left it behind, refusing connections (ECONNREFUSED). Any other
 * answer is taken as alive: a spool is adopted only when its owner is certainly gone.
 */
export function isOwnerAlive(path: string): Promise<boolean> {
  return new Promise((answer) => {
    const socket = createConnection(path);
    socket.once('connect', () => {
      socket.destroy();
      answer(true);
    });
    socket.once('error', (error: NodeJS.ErrnoException) =>
      answer(error.code !== 'ENOENT' && error.code !== 'ECONNREFUSED'),
    );
  });
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(path, () => {
      server.off('error', fail);
      done();
    });
  });
}
