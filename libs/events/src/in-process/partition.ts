import { CoalescingQueue } from '../shared/coalescing-queue';
import { errorMessage, type EventBusLogger } from '../shared/logger';
import { compactRecords, segmentsBelow } from './compaction';
import type { LogRecord } from './log-record';
import type { PartitionStorage, StoredPartition } from './persistence/data-dir';
import { PartitionLog } from './partition-log';

export interface PartitionPolicy {
  compacted: boolean;
  /** Plain topics keep at least this many records (and every record a group still needs). */
  retainRecords: number;
  /** Offsets below this have been consumed by every consumer group of the partition. */
  consumedBelow: () => number;
}

/** Below this many records a compacted log is not worth compacting. */
const MIN_RECORDS_BEFORE_COMPACTION = 1000;
/** A plain topic's segment holds about a quarter of its retention: what it keeps beyond it is at most that. */
const SEGMENTS_PER_RETENTION = 4;

/**
 * One partition: its in-memory log, the optional segment files behind it, and what keeps both
 * bounded. A plain topic's log is cut into segments; retention drops the oldest segment whole
 * once every record in it may go (a file deleted, an array sliced), so no turn of the loop ever
 * encodes or writes the records it keeps again. A compacted topic is one segment, compacted
 * lazily (when it has doubled) and rewritten a slice at a time.
 * With a file, records become visible only once written, so a consumer never commits an offset
 * that a restart could hand out again.
 */
export class Partition {
  readonly log: PartitionLog;
  private readonly writes: CoalescingQueue<LogRecord> | undefined;
  /** Base offset of each segment, oldest first; records are appended to the last. */
  private readonly segments: number[];
  /** Records appended to the last segment. */
  private activeRecords: number;
  private readonly recordsPerSegment: number;
  private compactAt = MIN_RECORDS_BEFORE_COMPACTION;

  constructor(
    topic: string,
    partition: number,
    stored: StoredPartition,
    nextOffsetFloor: number,
    private readonly policy: PartitionPolicy,
    private readonly storage: PartitionStorage | undefined,
    private readonly logger: EventBusLogger,
  ) {
    const lastBase = stored.segments.at(-1) ?? 0;
    // An empty last segment (its records torn away) still says where offsets had reached.
    this.log = new PartitionLog(topic, partition, stored.records, Math.max(nextOffsetFloor, lastBase));
    this.segments = stored.segments.length > 0 ? [...stored.segments] : [this.log.endOffset];
    if (policy.compacted && this.segments.length > 1) {
      throw new Error(`${topic}/${partition}: a compacted partition in more than one segment`);
    }
    this.activeRecords = this.log.read(this.activeBase, Number.POSITIVE_INFINITY).length;
    this.recordsPerSegment = policy.compacted
      ? Number.POSITIVE_INFINITY
      : Math.max(1, Math.ceil(policy.retainRecords / SEGMENTS_PER_RETENTION));
    // A lone append is written at once; under load, at most one write a millisecond (as before).
    this.writes =
      storage && new CoalescingQueue({ flush: (batch) => this.write(storage, batch), lingerMs: 1 });
  }

  append(records: Array<Omit<LogRecord, 'offset'>>): Promise<void> {
    if (records.length === 0) return Promise.resolve();
    const assigned = this.log.assignOffsets(records);
    if (!this.writes) {
      this.rollIfFull(assigned[0].offset);
      this.activeRecords += assigned.length;
      this.log.makeVisible(assigned);
      if (this.policy.compacted) this.compact(false);
      else this.dropConsumedSegments();
      return Promise.resolve();
    }
    return this.writes.push(assigned);
  }

  /** Start-up: compacts a compacted log (and rewrites it), or deletes the segments retention lets go. */
  maintainOnLoad(): void {
    if (this.policy.compacted) {
      if (this.compact(true)) this.storage?.rewriteSegmentSync(this.activeBase, this.log.snapshot());
      return;
    }
    for (const base of this.dropConsumedSegments()) {
      try {
        this.storage?.deleteSegmentSync(base);
      } catch (error) {
        this.warnUndeleted(base, error);
      }
    }
  }

  async drain(): Promise<void> {
    await this.writes?.drain();
  }

  private get activeBase(): number {
    return this.segments[this.segments.length - 1];
  }

  private async write(storage: PartitionStorage, records: LogRecord[]): Promise<void> {
    this.rollIfFull(records[0].offset);
    const base = this.activeBase;
    try {
      await storage.append(base, records);
    } catch (error) {
      // A partial append would leave a torn line in the middle of the segment: put back what is known.
      await storage
        .rewriteSegment(base, this.log.read(base, Number.POSITIVE_INFINITY))
        .catch(() => undefined);
      throw error;
    }
    this.activeRecords += records.length;
    this.log.makeVisible(records);
    if (this.policy.compacted) {
      if (this.compact(false)) {
        await storage.rewriteSegment(base, this.log.snapshot()).catch((error: unknown) => {
          this.logger.warn('could not rewrite a compacted event log; it stays uncompacted on disk', {
            topic: this.log.topic,
            partition: this.log.partition,
            error: errorMessage(error),
          });
        });
      }
      return;
    }
    for (const dropped of this.dropConsumedSegments()) {
      await storage.deleteSegment(dropped).catch((error: unknown) => this.warnUndeleted(dropped, error));
    }
  }

  /** A segment retention dropped but could not delete is loaded again at the next start, and dropped again. */
  private warnUndeleted(base: number, error: unknown): void {
    this.logger.warn('could not delete an event log segment that retention dropped', {
      topic: this.log.topic,
      partition: this.log.partition,
      base,
      error: errorMessage(error),
    });
  }

  /** Records from `nextOffset` on go to a new segment once the last one holds its share. */
  private rollIfFull(nextOffset: number): void {
    if (this.activeRecords < this.recordsPerSegment) return;
    this.segments.push(nextOffset);
    this.activeRecords = 0;
  }

  /** Retention: forgets the oldest segments whose every record may go; returns their bases. */
  private dropConsumedSegments(): number[] {
    if (this.segments.length < 2 || this.log.length <= this.policy.retainRecords) return [];
    const cut = Math.min(
      this.policy.consumedBelow(),
      this.log.offsetFromEnd(Math.max(this.policy.retainRecords, 1)),
      this.log.endOffset - 1,
    );
    const count = segmentsBelow(this.segments, cut);
    if (count === 0) return [];
    const dropped = this.segments.splice(0, count);
    this.log.dropBefore(this.segments[0]);
    return dropped;
  }

  /** Returns true when records were removed. */
  private compact(force: boolean): boolean {
    if (!force && this.log.length < this.compactAt) return false;
    const before = this.log.length;
    const records = compactRecords(this.log.snapshot(), this.policy.consumedBelow());
    this.log.replaceRecords(records);
    this.activeRecords = records.length;
    this.compactAt = Math.max(MIN_RECORDS_BEFORE_COMPACTION, 2 * records.length);
    return records.length !== before;
  }
}
