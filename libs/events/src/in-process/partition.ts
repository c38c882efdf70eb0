import { CoalescingQueue } from '../shared/coalescing-queue';
import { errorMessage, type EventBusLogger } from '../shared/logger';
import { compactRecords, trimRecords } from './compaction';
import type { LogRecord } from './log-record';
import type { PartitionStorage } from './persistence/data-dir';
import { PartitionLog } from './partition-log';

export interface PartitionPolicy {
  compacted: boolean;
  /** Plain topics keep at least this many records (and every record a group still needs). */
  retainRecords: number;
  /** Offsets below this have been consumed by every consumer group of the partition. */
  consumedBelow: () => number;
}

/** Below this many records a log is not worth compacting or trimming. */
const MIN_RECORDS_BEFORE_MAINTENANCE = 1000;

/**
 * One partition: its in-memory log, the optional file behind it, and the lazy compaction or
 * retention that keeps both bounded. With a file, records become visible only once written,
 * so a consumer never commits an offset that a restart could hand out again.
 */
export class Partition {
  readonly log: PartitionLog;
  private readonly writes: CoalescingQueue<LogRecord> | undefined;
  private maintainAt = MIN_RECORDS_BEFORE_MAINTENANCE;

  constructor(
    topic: string,
    partition: number,
    records: LogRecord[],
    nextOffsetFloor: number,
    private readonly policy: PartitionPolicy,
    private readonly storage: PartitionStorage | undefined,
    private readonly logger: EventBusLogger,
  ) {
    this.log = new PartitionLog(topic, partition, records, nextOffsetFloor);
    // A lone append is written at once; under load, at most one write a millisecond (as before).
    this.writes =
      storage && new CoalescingQueue({ flush: (batch) => this.write(storage, batch), lingerMs: 1 });
  }

  append(records: Array<Omit<LogRecord, 'offset'>>): Promise<void> {
    const assigned = this.log.assignOffsets(records);
    if (!this.writes) {
      this.log.makeVisible(assigned);
      this.maintain(false);
      return Promise.resolve();
    }
    return this.writes.push(assigned);
  }

  /** Compacts (or trims) now and rewrites the file when that removed anything; for start-up. */
  maintainOnLoad(): void {
    if (this.maintain(true)) this.storage?.rewriteSync(this.log.snapshot());
  }

  async drain(): Promise<void> {
    await this.writes?.drain();
  }

  private async write(storage: PartitionStorage, records: LogRecord[]): Promise<void> {
    try {
      await storage.append(records);
    } catch (error) {
      // A partial append would leave a torn line in the middle of the file: put back what is known.
      await storage.rewrite(this.log.snapshot()).catch(() => undefined);
      throw error;
    }
    this.log.makeVisible(records);
    if (this.maintain(false)) {
      await storage.rewrite(this.log.snapshot()).catch((error: unknown) => {
        this.logger.warn('could not rewrite a compacted event log; it stays uncompacted on disk', {
          topic: this.log.topic,
          partition: this.log.partition,
          error: errorMessage(error),
        });
      });
    }
  }

  /** Returns true when records were removed. */
  private maintain(force: boolean): boolean {
    if (!force && this.log.length < this.maintainAt) return false;
    const before = this.log.length;
    const records = this.policy.compacted
      ? compactRecords(this.log.snapshot(), this.policy.consumedBelow())
      : trimRecords(this.log.snapshot(), this.policy.retainRecords, this.policy.consumedBelow());
    this.log.replaceRecords(records);
    const floor = this.policy.compacted
      ? records.length
      : Math.max(records.length, this.policy.retainRecords);
    this.maintainAt = Math.max(MIN_RECORDS_BEFORE_MAINTENANCE, 2 * floor);
    return records.length !== before;
  }
}
