import { createHash } from 'node:crypto';
import { rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { holdSocketLock, probeSocketLock } from '@tollgate/runtime';

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
  try {
    return await holdSocketLock(address);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    if (isAbstract(address) || (await probeSocketLock(address)) === 'held') {
      throw new Error(
        `The data directory ${resolve(dataDir)} is in use by another running Tollgate platform: ` +
          'stop that one first, or give this one another TOLLGATE_DATA_DIR.',
      );
    }
    rmSync(address, { force: true });
    return holdSocketLock(address);
  }
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
