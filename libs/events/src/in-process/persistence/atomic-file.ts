import { closeSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';

/** Replaces a file so that a crash leaves either the old or the new content, never a mix. */
export async function writeFileAtomic(path: string, content: string): Promise<void> {
  await writeLinesAtomic(path, [content], (text) => text);
}

/**
 * As `writeFileAtomic`, for content made of many lines: they are encoded and written a slice at a
 * time, each write awaited, so that a large file (a compacted partition of many keys) never costs
 * the event loop more than one slice's encoding in one turn.
 */
export async function writeLinesAtomic<T>(
  path: string,
  items: readonly T[],
  encode: (item: T) => string,
  linesPerSlice = 512,
): Promise<void> {
  const temporary = `${path}.tmp`;
  const handle = await open(temporary, 'w');
  try {
    for (let start = 0; start < items.length; start += linesPerSlice) {
      let slice = '';
      for (let i = start; i < Math.min(items.length, start + linesPerSlice); i++) slice += encode(items[i]);
      await handle.writeFile(slice, 'utf8');
    }
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, path);
}

export function writeFileAtomicSync(path: string, content: string): void {
  const temporary = `${path}.tmp`;
  const fd = openSync(temporary, 'w');
  try {
    writeSync(fd, content, null, 'utf8');
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
}
