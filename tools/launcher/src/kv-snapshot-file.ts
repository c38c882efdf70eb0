import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import type { MemoryKvStore } from '@tollgate/kv';
import { z } from 'zod';

/** In the data directory, beside secrets.json. */
export const KV_SNAPSHOT_FILE = 'kv-snapshot.json';

/** How often the store is written out while it changes, so a crash loses at most this much. */
export const KV_SNAPSHOT_INTERVAL_MS = 15_000;

const snapshotFileSchema = z.object({
  version: z.literal(1),
  entries: z.array(z.object({ key: z.string(), value: z.string(), expiresAt: z.number().int().nullable() })),
});

/**
 * Embedded mode's in-memory store written to the data directory and read back on the next start,
 * as a Redis with persistence would be: sessions, verification codes, OAuth states, cooldowns and
 * guess limits survive a restart, so an upgrade does not sign every user out. Written whole to a
 * temporary file and renamed over the old one (mode 0600: it holds session secrets), so a crash
 * mid-write leaves the previous snapshot.
 */
export class KvSnapshotFile {
  private savedRevision: number;
  private timer: NodeJS.Timeout | undefined;
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: MemoryKvStore,
    private readonly file: string,
    private readonly log: (line: string) => void,
  ) {
    this.savedRevision = store.revision;
  }

  /**
   * Restores the last snapshot; a missing file is a first start, an unreadable or damaged one is
   * reported and skipped (what it held is disposable: users sign in again).
   */
  load(): number {
    let parsed: z.infer<typeof snapshotFileSchema>;
    try {
      parsed = snapshotFileSchema.parse(JSON.parse(readFileSync(this.file, 'utf8')));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      this.log(
        `the key-value snapshot ${this.file} could not be read; starting without it (users sign in again)`,
      );
      return 0;
    }
    const restored = this.store.restore(parsed.entries);
    this.savedRevision = this.store.revision;
    return restored;
  }

  /** Saves every interval while the store has changed since the last save. */
  start(intervalMs = KV_SNAPSHOT_INTERVAL_MS): void {
    this.timer = setInterval(() => {
      if (this.store.revision !== this.savedRevision)
        void this.save().catch((error: unknown) => this.failed(error));
    }, intervalMs).unref();
  }

  /** Stops the timer and writes the last state; call before the store is closed. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.save().catch((error: unknown) => this.failed(error));
  }

  /** Writes the store's live string keys now (after any save already under way). */
  save(): Promise<void> {
    // A failed save does not stop the next one: it tries again with the state of then.
    this.saving = this.saving.catch(() => undefined).then(() => this.write());
    return this.saving;
  }

  private async write(): Promise<void> {
    const revision = this.store.revision;
    const text = JSON.stringify({ version: 1, entries: this.store.snapshot() });
    const temporary = `${this.file}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await writeFile(temporary, text, { mode: 0o600 });
      await rename(temporary, this.file);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    this.savedRevision = revision;
  }

  private failed(error: unknown): void {
    this.log(`could not save the key-value snapshot ${this.file}: ${(error as Error).message}`);
  }
}
