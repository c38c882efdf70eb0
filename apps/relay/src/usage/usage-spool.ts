import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { UsageRecorded } from '@tollgate/contracts';
import type { Logger } from '@tollgate/platform';
import { holdSocketLock, probeSocketLock, type SocketLock } from '@tollgate/runtime';

/** `<owner>.jsonl` is what the owner appends to; `<owner>-<n>.jsonl` are spools it adopted. */
const SPOOL_FILE = /^([0-9a-f]{16})(?:-\d+)?\.jsonl$/;
const LOCK_FILE = /^([0-9a-f]{16})\.lock$/;

export interface UsageSpoolOptions {
  /** RELAY_USAGE_SPOOL_DIR. */
  directory: string;
  logger: Logger;
}

type Operation = { kind: 'append'; text: string; settle: Settle } | { kind: 'clear'; settle: Settle };
type Settle = (error?: unknown) => void;

/**
 * usage.recorded that the broker has not taken yet, on disk: what a relay holds for a broker that is
 * away survives the relay dying. Each process appends (write + fsync) to a file of its own, named by
 * a random id and marked alive by a socket lock (`holdSocketLock`, libs/runtime), so that replicas
 * and worker processes sharing a directory never write one file; a relay that starts claims, by an
 * atomic rename, the files of every owner that is gone and publishes their events.
 *
 * Nothing here is touched until a publish fails: no directory, lock or file before then.
 *
 * Events are removed only once all of them were published (`clear`), so a crash in between, or a
 * publish whose acknowledgement was lost, publishes some events twice. That is harmless: billing and
 * every other usage.recorded consumer settle by event_id.
 */
export class UsageSpool {
  /** This process's owner id; its files are `<id>.jsonl` and `<id>-<n>.jsonl`. */
  readonly id = randomBytes(8).toString('hex');
  private lock: Promise<SocketLock> | undefined;
  private file: Promise<FileHandle> | undefined;
  /** Files claimed from owners that are gone; removed at the next `clear`. */
  private readonly adopted: string[] = [];
  private claims = 0;
  private readonly operations: Operation[] = [];
  private draining: Promise<void> | undefined;
  private closed = false;
  private closing: Promise<void> | undefined;

  constructor(private readonly options: UsageSpoolOptions) {}

  /**
   * Claims the spool files of every owner that is no longer alive and returns their events, each
   * once. They stay on disk, as this process's, until `clear`.
   */
  async adopt(): Promise<UsageRecorded[]> {
    const { directory, logger } = this.options;
    let names: string[];
    try {
      names = await readdir(directory);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const filesOf = new Map<string, string[]>();
    for (const name of names) {
      const owner = SPOOL_FILE.exec(name)?.[1] ?? LOCK_FILE.exec(name)?.[1];
      if (owner === undefined || owner === this.id) continue;
      const files = filesOf.get(owner) ?? [];
      if (SPOOL_FILE.test(name)) files.push(name);
      filesOf.set(owner, files);
    }
    const claimed: string[] = [];
    for (const [owner, files] of filesOf) {
      if (await isOwnerAlive(this.lockPath(owner))) continue;
      if (files.length > 0) await this.own();
      for (const name of files) {
        const mine = join(directory, `${this.id}-${++this.claims}.jsonl`);
        try {
          // Atomic: of relays starting side by side, exactly one claims each file.
          await rename(join(directory, name), mine);
          claimed.push(mine);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        }
      }
      await rm(this.lockPath(owner), { force: true });
    }
    const events = new Map<string, UsageRecorded>();
    for (const path of claimed) {
      const read = this.read(path, await readFile(path, 'utf8'));
      // A file its owner had emptied (it died after publishing everything) holds nothing to wait for.
      if (read.length === 0) await rm(path, { force: true });
      else this.adopted.push(path);
      for (const event of read) events.set(event.event_id, event);
    }
    if (claimed.length > 0) {
      logger.info(
        { usage_adopted: events.size, files: claimed.length },
        'usage.recorded spooled by a relay that is gone: adopted, published once the broker takes it',
      );
    }
    return [...events.values()];
  }

  /** Resolves once the events are on disk (written and fsynced). */
  append(events: readonly UsageRecorded[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the usage spool is closed'));
    const text = events.map((event) => `${JSON.stringify(event)}\n`).join('');
    return this.enqueue((settle) => ({ kind: 'append', text, settle }));
  }

  /**
   * Empties the spool: call it when every event appended or adopted so far has been published.
   * Appends made after this call are kept.
   */
  clear(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return this.enqueue((settle) => ({ kind: 'clear', settle }));
  }

  /**
   * Finishes pending writes and lets go of the spool: what it still holds is adopted by the next
   * relay to start with this directory. An empty file of its own is removed.
   */
  close(): Promise<void> {
    this.closing ??= this.release();
    return this.closing;
  }

  private async release(): Promise<void> {
    this.closed = true;
    while (this.draining) await this.draining;
    const file = await this.file?.catch(() => undefined);
    if (file) {
      const { size } = await file.stat();
      await file.close();
      if (size === 0) await rm(this.ownPath(), { force: true });
    }
    const lock = await this.lock?.catch(() => undefined);
    await lock?.release();
  }

  private enqueue(operation: (settle: Settle) => Operation): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.operations.push(operation((error) => (error === undefined ? resolve() : reject(error))));
      this.drain();
    });
  }

  private drain(): void {
    if (this.draining) return;
    this.draining = this.run().finally(() => {
      this.draining = undefined;
      if (this.operations.length > 0) this.drain();
    });
  }

  /** In order; consecutive appends share one write and one fsync. */
  private async run(): Promise<void> {
    while (this.operations.length > 0) {
      const first = this.operations[0]!;
      const batch =
        first.kind === 'clear'
          ? this.operations.splice(0, 1)
          : this.operations.splice(0, this.appendsAtHead());
      try {
        if (first.kind === 'clear') await this.empty();
        else await this.write(batch.map((op) => (op.kind === 'append' ? op.text : '')).join(''));
        batch.forEach((op) => op.settle());
      } catch (error) {
        batch.forEach((op) => op.settle(error));
      }
    }
  }

  private appendsAtHead(): number {
    const end = this.operations.findIndex((op) => op.kind !== 'append');
    return end === -1 ? this.operations.length : end;
  }

  private async write(text: string): Promise<void> {
    const file = await this.ownFile();
    await file.appendFile(text, 'utf8');
    await file.sync();
  }

  private async empty(): Promise<void> {
    const file = await this.file?.catch(() => undefined);
    await file?.truncate(0);
    for (const path of this.adopted.splice(0)) await rm(path, { force: true });
  }

  /**
   * The lock comes first: no file of this owner exists before other relays can see it alive. It is a
   * socket file in the spool directory, never abstract, so that processes in different containers
   * sharing one volume on one host see each other's locks (an abstract socket lives in its network
   * namespace). Each owner has its own id, so the path is never contended.
   */
  private own(): Promise<SocketLock> {
    this.lock ??= (async () => {
      await mkdir(this.options.directory, { recursive: true });
      return holdSocketLock(this.lockPath(this.id));
    })().catch((error: unknown) => {
      this.lock = undefined;
      throw error;
    });
    return this.lock;
  }

  private ownFile(): Promise<FileHandle> {
    this.file ??= (async () => {
      await this.own();
      const file = await open(this.ownPath(), 'a');
      await this.syncDirectory();
      return file;
    })().catch((error: unknown) => {
      this.file = undefined;
      throw error;
    });
    return this.file;
  }

  /** A new file's name is durable only once its directory is synced. */
  private async syncDirectory(): Promise<void> {
    const directory = await open(this.options.directory, 'r');
    try {
      await directory.sync();
    } finally {
      await directory.close();
    }
  }

  /** Every complete line that holds an event; a torn last line (its writer died mid-write) is skipped. */
  private read(path: string, text: string): UsageRecorded[] {
    const { logger } = this.options;
    const lines = text.split('\n');
    // Whatever follows the last newline was being written when the owner died.
    const last = lines.pop() ?? '';
    const events: UsageRecorded[] = [];
    let unreadable = 0;
    for (const line of lines) {
      if (line === '') continue;
      const event = parseEvent(line);
      if (event) events.push(event);
      else unreadable += 1;
    }
    if (last !== '') {
      const event = parseEvent(last);
      if (event) events.push(event);
      else logger.warn({ file: path, bytes: last.length }, 'torn last line of a usage spool skipped');
    }
    if (unreadable > 0)
      logger.warn({ file: path, lines: unreadable }, 'unreadable usage spool lines skipped');
    return events;
  }

  private ownPath(): string {
    return join(this.options.directory, `${this.id}.jsonl`);
  }

  private lockPath(owner: string): string {
    return join(this.options.directory, `${owner}.lock`);
  }
}

/** An event as relay wrote it; consumers check the full schema (and dead-letter what fails it). */
function parseEvent(line: string): UsageRecorded | undefined {
  try {
    const value = JSON.parse(line) as unknown;
    if (typeof value === 'object' && value !== null && typeof (value as UsageRecorded).event_id === 'string')
      return value as UsageRecorded;
  } catch {
    // Not JSON: torn or damaged.
  }
  return undefined;
}

/**
 * Whether a spool owner's process is alive. One that released its lock removed the socket file, one
 * that died left it refusing connections; anything else is taken as alive: a spool is adopted only
 * when its owner is certainly gone.
 */
async function isOwnerAlive(lockPath: string): Promise<boolean> {
  const state = await probeSocketLock(lockPath);
  return state !== 'absent' && state !== 'stale';
}
