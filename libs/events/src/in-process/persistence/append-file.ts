import { closeSync, openSync, write, writeSync } from 'node:fs';

/**
 * Appends up to this size are written on the calling thread: a write to the page cache of a few
 * hundred bytes (one publish, one commit) costs less than handing it to the thread pool, whose answer
 * wakes the event loop once more: at one call at a time, each call's usage event, its consumers'
 * commits and billing's balance event were a wake-up each. Larger appends (a backlog's batch) still
 * go to the pool, so the loop never waits on a big write.
 */
const WRITE_ON_CALLER_BELOW_BYTES = 64 * 1024;

/**
 * A file appended to through one descriptor kept open, instead of an open, a write and a close per
 * append (fs.appendFile): a third of the system calls for the small appends a publish or a commit
 * makes. Appends to one file must not overlap (each owner writes from one coalescing queue), and a
 * caller that replaces the file (a rewrite renames a new one over it) calls `reopen` so that the next
 * append goes to the new file, not the unlinked old one.
 */
export class AppendFile {
  private fd: number | undefined;

  constructor(private readonly path: string) {}

  append(text: string): Promise<void> {
    let fd: number;
    try {
      // Opened once, on the first append: the same flags fs.appendFile uses.
      fd = this.fd ??= openSync(this.path, 'a');
    } catch (error) {
      return Promise.reject(error);
    }
    const buffer = Buffer.from(text, 'utf8');
    if (buffer.length < WRITE_ON_CALLER_BELOW_BYTES) {
      try {
        let written = 0;
        while (written < buffer.length) written += writeSync(fd, buffer, written);
        return Promise.resolve();
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return new Promise((resolve, reject) => writeAll(fd, buffer, resolve, reject));
  }

  /** The file at `path` was replaced: the next append opens it again. */
  reopen(): void {
    this.close();
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }
}

function writeAll(fd: number, buffer: Buffer, resolve: () => void, reject: (error: unknown) => void): void {
  write(fd, buffer, 0, buffer.length, null, (error, written) => {
    if (error) reject(error);
    else if (written < buffer.length) writeAll(fd, buffer.subarray(written), resolve, reject);
    else resolve();
  });
}
