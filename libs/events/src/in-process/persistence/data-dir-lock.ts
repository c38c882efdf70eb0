import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';

const heldInThisProcess = new Set<string>();

/**
 * One bus per data dir: two writers appending to the same logs would corrupt them. The lock
 * file holds the owner's pid; a lock left by a process that no longer runs is taken over.
 */
export class DataDirLock {
  private constructor(private readonly path: string) {}

  static acquire(dataDir: string): DataDirLock {
    const path = join(resolve(dataDir), 'LOCK');
    if (heldInThisProcess.has(path)) {
      throw new Error(`Event bus data dir ${dataDir} is already open in this process`);
    }
    for (;;) {
      try {
        const fd = openSync(path, 'wx');
        writeSync(fd, String(process.pid));
        closeSync(fd);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const owner = Number(readLockOwner(path));
        if (owner !== process.pid && isRunning(owner)) {
          throw new Error(`Event bus data dir ${dataDir} is locked by running process ${owner}`);
        }
        rmSync(path, { force: true });
      }
    }
    heldInThisProcess.add(path);
    return new DataDirLock(path);
  }

  release(): void {
    heldInThisProcess.delete(this.path);
    rmSync(this.path, { force: true });
  }
}

function readLockOwner(path: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return '';
  }
}

function isRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
