import { join, resolve } from 'node:path';

const heldInThisProcess = new Set<string>();

/**
 * One bus per data dir within this process: two writers appending to the same logs would corrupt
 * them. Across processes the owner of the directory holds an operating-system lock (the embedded
 * launcher's `lockDataDir`); a pid file here would outlive a killed holder and, once its pid was
 * reused after a restart, refuse a platform that has every right to start.
 */
export class DataDirLock {
  private constructor(private readonly path: string) {}

  static acquire(dataDir: string): DataDirLock {
    const path = join(resolve(dataDir), 'LOCK');
    if (heldInThisProcess.has(path)) {
      throw new Error(`Event bus data dir ${dataDir} is already open in this process`);
    }
    heldInThisProcess.add(path);
    return new DataDirLock(path);
  }

  release(): void {
    heldInThisProcess.delete(this.path);
  }
}
