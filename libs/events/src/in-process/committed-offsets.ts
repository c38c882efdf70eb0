import { CoalescingQueue } from '../shared/coalescing-queue';
import type { OffsetsStorage } from './persistence/data-dir';
import type { OffsetEntry } from './persistence/record-lines';

/** The offsets file is rewritten to one line per entry once it holds this many times more. */
const REWRITE_FACTOR = 8;
const MIN_LINES_BEFORE_REWRITE = 1000;

/** Committed offsets of every consumer group, optionally persisted as an append-only file. */
export class CommittedOffsets {
  /** topic → partition → group → next offset to read. */
  private readonly byPartition = new Map<string, Map<number, Map<string, number>>>();
  private readonly writes: CoalescingQueue<OffsetEntry> | undefined;
  private linesInFile: number;

  constructor(initial: OffsetEntry[], storage: OffsetsStorage | undefined) {
    for (const entry of initial) this.set(entry);
    this.linesInFile = initial.length;
    // A lone commit is written at once; under load, at most one write a millisecond (as before).
    this.writes =
      storage && new CoalescingQueue({ flush: (entries) => this.write(storage, entries), lingerMs: 1 });
  }

  get(groupId: string, topic: string, partition: number): number | undefined {
    return this.byPartition.get(topic)?.get(partition)?.get(groupId);
  }

  /** Takes effect at once; resolves when it is on disk (at once without a data dir). */
  commit(entry: OffsetEntry): Promise<void> {
    this.set(entry);
    return this.writes ? this.writes.push([entry]) : Promise.resolve();
  }

  /** Lowest committed offset over all groups of the partition (+Infinity if none has one). */
  consumedBelow(topic: string, partition: number): number {
    let lowest = Number.POSITIVE_INFINITY;
    for (const offset of this.byPartition.get(topic)?.get(partition)?.values() ?? []) {
      lowest = Math.min(lowest, offset);
    }
    return lowest;
  }

  /** Highest committed offset over all groups of the partition (0 if none has one). */
  highestCommitted(topic: string, partition: number): number {
    let highest = 0;
    for (const offset of this.byPartition.get(topic)?.get(partition)?.values() ?? []) {
      highest = Math.max(highest, offset);
    }
    return highest;
  }

  async drain(): Promise<void> {
    await this.writes?.drain();
  }

  private set({ groupId, topic, partition, offset }: OffsetEntry): void {
    let partitions = this.byPartition.get(topic);
    if (!partitions) this.byPartition.set(topic, (partitions = new Map()));
    let groups = partitions.get(partition);
    if (!groups) partitions.set(partition, (groups = new Map()));
    groups.set(groupId, offset);
  }

  private all(): OffsetEntry[] {
    const entries: OffsetEntry[] = [];
    for (const [topic, partitions] of this.byPartition) {
      for (const [partition, groups] of partitions) {
        for (const [groupId, offset] of groups) entries.push({ groupId, topic, partition, offset });
      }
    }
    return entries;
  }

  private async write(storage: OffsetsStorage, entries: OffsetEntry[]): Promise<void> {
    const all = this.all();
    if (this.linesInFile + entries.length > Math.max(MIN_LINES_BEFORE_REWRITE, REWRITE_FACTOR * all.length)) {
      await storage.rewrite(all);
      this.linesInFile = all.length;
      return;
    }
    try {
      await storage.append(entries);
      this.linesInFile += entries.length;
    } catch {
      // A partial append would tear a line in the middle of the file; the rewrite holds `entries` too.
      await storage.rewrite(all);
      this.linesInFile = all.length;
    }
  }
}
