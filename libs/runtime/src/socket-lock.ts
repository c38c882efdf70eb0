import { createConnection, createServer, type Server } from 'node:net';

/**
 * A lock that dies with its holder: a listening Unix socket, which the kernel closes when the process
 * exits however it exits (`kill -9` included), where a pid file would outlive it and its pid be reused
 * after a restart. Used for the embedded platform's data directory and relay's usage spool owners.
 */
export interface SocketLock {
  release(): Promise<void>;
}

/** Listens on `address` (a socket path, or `\0name` for an abstract socket); fails with EADDRINUSE if taken. */
export async function holdSocketLock(address: string): Promise<SocketLock> {
  // A probe only needs the connection to open; nothing is said on it.
  const server = createServer((socket) => socket.destroy());
  await listen(server, address);
  // The lock must not keep the process alive on its own.
  server.unref();
  // Closing the server removes a socket file.
  return { release: () => new Promise<void>((done) => server.close(() => done())) };
}

/**
 * What a connection to a lock's address meets: `held` (a live holder answers), `absent` (no socket
 * file: released, or never taken), `stale` (a socket file nobody listens on: its holder died), or
 * `unknown` (any other error).
 */
export function probeSocketLock(address: string): Promise<'held' | 'absent' | 'stale' | 'unknown'> {
  return new Promise((answer) => {
    const socket = createConnection(address);
    socket.once('connect', () => {
      socket.destroy();
      answer('held');
    });
    socket.once('error', (error: NodeJS.ErrnoException) =>
      answer(error.code === 'ENOENT' ? 'absent' : error.code === 'ECONNREFUSED' ? 'stale' : 'unknown'),
    );
  });
}

function listen(server: Server, address: string): Promise<void> {
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(address, () => {
      server.off('error', fail);
      done();
    });
  });
}
