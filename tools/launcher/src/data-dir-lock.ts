import { createHash } from 'node:crypto';
import { rmSync, statSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import { join, resolve } from 'node:path';

export interface DataDirLock {
  release(): Promise<void>;
}

/**
 * One embedded platform per data directory: two would write the same PGlite files and event logs.
 *
 * The lock is a listening Unix socket, which the kernel closes when its holder exits however it
 * exits (`kill -9` included). A pid file would outlive its holder, and after a container restart
 * its pid often belongs to another process, which kept the restarted platform from starting.
 * On Linux the socket is abstract (no file, so nothing is left behind), named after the
 * directory's device and inode so that every spelling of the path meets the same lock. Elsewhere
 * it is a socket file in the directory; one left by a dead holder refuses connections and is
 * replaced.
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const address = lockAddress(dataDir);
  // A probe from a second platform only needs the connection to open; nothing is said on it.
  const server = createServer((socket) => socket.destroy());
  try {
    await listen(server, address);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    if (isAbstract(address) || (await acceptsConnections(address))) {
      throw new Error(
        `The data directory ${resolve(dataDir)} is in use by another running Tollgate platform: ` +
          'stop that one first, or give this one another TOLLGATE_DATA_DIR.',
      );
    }
    rmSync(address, { force: true });
    await listen(server, address);
  }
  // The lock must not keep the process alive on its own.
  server.unref();
  return { release: () => new Promise<void>((done) => server.close(() => done())) };
}

function lockAddress(dataDir: string): string {
  if (process.platform !== 'linux') return join(dataDir, 'platform.lock.sock');
  const { dev, ino } = statSync(dataDir);
  const key = createHash('sha256').update(`${dev}:${ino}`).digest('hex').slice(0, 32);
  return `\0tollgate-data-dir-${key}`;
}

function isAbstract(address: string): boolean {
  return address.startsWith('\0');
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

function acceptsConnections(address: string): Promise<boolean> {
  return new Promise((answer) => {
    const socket = createConnection(address);
    socket.once('connect', () => {
      socket.destroy();
      answer(true);
    });
    socket.once('error', () => answer(false));
  });
}
