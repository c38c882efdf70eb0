import type { LogRecord } from './log-record';

type AppendListener = (records: readonly LogRecord[]) => void;

interface Waiter {
  offset: number;
  wake: () => void;
}

/**
 * The records of one partition in memory, in offset order. After compaction or retention the
 * offsets are sparse, exactly like a Kafka log: readers ask for "the records from offset n on".
 */
export class PartitionLog {
  private records: LogRecord[];
  /** Offset after the last visible record: what Kafka calls the high watermark. */
  private highWatermark: number;
  /** Next offset to hand out; ahead of the high watermark while a write is in flight. */
  private nextOffset: number;
  private readonly listeners = new Set<AppendListener>();
  private readonly waiters = new Set<Waiter>();

  constructor(
    readonly topic: string,
    readonly partition: number,
    records: LogRecord[],
    /** No offset below this is handed out again (a group may have committed up to it). */
    nextOffsetFloor = 0,
  ) {
    for (let i = 1; i < records.length; i++) {
      if (records[i].offset <= records[i - 1].offset) {
        throw new Error(`${topic}/${partition}: offsets out of order at ${records[i].offset}`);
      }
    }
    this.records = records;
    const afterLast = records.length > 0 ? records[records.length - 1].offset + 1 : 0;
    this.highWatermark = Math.max(afterLast, nextOffsetFloor);
    this.nextOffset = this.highWatermark;
  }

  get endOffset(): number {
    return this.highWatermark;
  }

  get startOffset(): number {
    return this.records.length > 0 ? this.records[0].offset : this.highWatermark;
  }

  get length(): number {
    return this.records.length;
  }

  snapshot(): readonly LogRecord[] {
    return this.records;
  }

  assignOffsets(records: Array<Omit<LogRecord, 'offset'>>): LogRecord[] {
    return records.map(({ key, value, headers, timestamp }) => ({
      offset: this.nextOffset++,
      key,
      value,
      headers,
      timestamp,
    }));
  }

  /** Makes written records readable and tells tables and waiting consumers. */
  makeVisible(records: LogRecord[]): void {
    if (records.length === 0) return;
    for (const record of records) this.records.push(record);
    this.highWatermark = records[records.length - 1].offset + 1;
    for (const listener of this.listeners) listener(records);
    for (const waiter of this.waiters) {
      if (waiter.offset < this.highWatermark) waiter.wake();
    }
  }

  replaceRecords(records: LogRecord[]): void {
    this.records = records;
  }

  /** Forgets the records below `offset` (retention dropped their segments). */
  dropBefore(offset: number): void {
    const index = this.indexOf(offset);
    if (index > 0) this.records = this.records.slice(index);
  }

  /** Offset of the `count`-th record from the end (the last is the 1st), or -1 past the first. */
  offsetFromEnd(count: number): number {
    return this.records[this.records.length - count]?.offset ?? -1;
  }

  /** Up to `max` records with offset >= `from`. */
  read(from: number, max: number): LogRecord[] {
    const low = this.indexOf(from);
    return this.records.slice(low, low + max);
  }

  /** Index of the first record with offset >= `offset`. */
  private indexOf(offset: number): number {
    let low = 0;
    let high = this.records.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.records[middle].offset < offset) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** Resolves when a record at or after `offset` is visible, or when `signal` aborts. */
  waitForRecords(offset: number, signal: AbortSignal): Promise<void> {
    if (offset < this.highWatermark || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const waiter: Waiter = {
        offset,
        wake: () => {
          this.waiters.delete(waiter);
          signal.removeEventListener('abort', waiter.wake);
          resolve();
        },
      };
      this.waiters.add(waiter);
      signal.addEventListener('abort', waiter.wake, { once: true });
    });
  }

  onAppend(listener: AppendListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
