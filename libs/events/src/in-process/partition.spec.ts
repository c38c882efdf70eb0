import { silentEventBusLogger } from '../shared/logger';
import type { LogRecord } from './log-record';
import { Partition, type PartitionPolicy } from './partition';
import type { PartitionStorage, StoredPartition } from './persistence/data-dir';

/** Segments kept in memory, and every call the partition made. */
class FakeStorage implements PartitionStorage {
  readonly segments = new Map<number, LogRecord[]>();
  readonly calls: string[] = [];

  async append(base: number, records: LogRecord[]): Promise<void> {
    this.segments.set(base, [...(this.segments.get(base) ?? []), ...records]);
  }
  async deleteSegment(base: number): Promise<void> {
    this.deleteSegmentSync(base);
  }
  deleteSegmentSync(base: number): void {
    this.calls.push(`delete ${base}`);
    this.segments.delete(base);
  }
  async rewriteSegment(base: number, records: readonly LogRecord[]): Promise<void> {
    this.rewriteSegmentSync(base, records);
  }
  rewriteSegmentSync(base: number, records: readonly LogRecord[]): void {
    this.calls.push(`rewrite ${base} (${records.length} records)`);
    this.segments.set(base, [...records]);
  }

  stored(): StoredPartition {
    const segments = [...this.segments.keys()].sort((a, b) => a - b);
    return { segments, records: segments.flatMap((base) => this.segments.get(base)!) };
  }
  offsets(): number[] {
    return this.stored().records.map((record) => record.offset);
  }
}

const none = (): StoredPartition => ({ records: [], segments: [] });
const plain = (retainRecords: number, consumedBelow = () => Number.POSITIVE_INFINITY): PartitionPolicy => ({
  compacted: false,
  retainRecords,
  consumedBelow,
});
const records = (count: number, key = 'user') =>
  Array.from({ length: count }, (_, i) => ({ key, value: String(i), headers: {}, timestamp: 0 }));

async function publish(partition: Partition, batches: number, perBatch: number): Promise<void> {
  for (let i = 0; i < batches; i++) await partition.append(records(perBatch));
}

describe('Partition retention by segments', () => {
  it('drops the oldest segments whole, never rewriting what it keeps, and keeps at least the retention', async () => {
    const storage = new FakeStorage();
    const partition = new Partition('usage', 0, none(), 0, plain(100), storage, silentEventBusLogger);
    await publish(partition, 200, 5);
    await partition.drain();

    expect(storage.calls.filter((call) => call.startsWith('rewrite'))).toEqual([]);
    // Segments of a quarter of the retention: what stays is the retention and at most one segment more.
    expect(storage.offsets().length).toBeGreaterThanOrEqual(100);
    expect(storage.offsets().length).toBeLessThanOrEqual(125);
    expect([...storage.segments.keys()].every((base) => base % 25 === 0)).toBe(true);
    expect(storage.offsets().at(-1)).toBe(999);
    // The log in memory is what the files hold.
    expect(partition.log.read(0, 1000).map((record) => record.offset)).toEqual(storage.offsets());
  });

  it('keeps every record a group has not consumed, whatever the retention', async () => {
    const storage = new FakeStorage();
    const partition = new Partition(
      'usage',
      0,
      none(),
      0,
      plain(10, () => 130),
      storage,
      silentEventBusLogger,
    );
    await publish(partition, 100, 5);
    await partition.drain();
    const kept = storage.offsets();
    expect(kept[0]).toBeLessThanOrEqual(130);
    expect(kept).toEqual(Array.from({ length: 500 - kept[0] }, (_, i) => kept[0] + i));
    expect(kept[0]).toBeGreaterThan(100); // the segments wholly below 130 went
  });

  it('applies the same retention without a data dir', async () => {
    const partition = new Partition('usage', 0, none(), 0, plain(100), undefined, silentEventBusLogger);
    await publish(partition, 1000, 1);
    expect(partition.log.length).toBeGreaterThanOrEqual(100);
    expect(partition.log.length).toBeLessThanOrEqual(125);
    expect([partition.log.startOffset, partition.log.endOffset]).toEqual([1000 - partition.log.length, 1000]);
  });

  it('drops on load the segments retention lets go, and appends after the last record', async () => {
    const storage = new FakeStorage();
    const first = new Partition('usage', 0, none(), 0, plain(1000), storage, silentEventBusLogger);
    await publish(first, 40, 25);
    await first.drain();
    expect(storage.segments.size).toBe(4);

    // Reopened with a smaller retention: the three segments before the last 50 records go at once.
    const second = new Partition('usage', 0, storage.stored(), 0, plain(50), storage, silentEventBusLogger);
    second.maintainOnLoad();
    expect(storage.calls).toEqual(['delete 0', 'delete 250', 'delete 500']);
    expect(second.log.startOffset).toBe(750);
    await second.append(records(1));
    await second.drain();
    expect(storage.offsets().at(-1)).toBe(1000);
  });

  it('starts even when a segment retention dropped at load cannot be deleted, and says so', async () => {
    const storage = new FakeStorage();
    const first = new Partition('usage', 0, none(), 0, plain(100), storage, silentEventBusLogger);
    await publish(first, 40, 25);
    await first.drain();
    jest.spyOn(storage, 'deleteSegmentSync').mockImplementation(() => {
      throw new Error('EACCES');
    });
    const warnings: string[] = [];
    const logger = { ...silentEventBusLogger, warn: (message: string) => void warnings.push(message) };
    const second = new Partition('usage', 0, storage.stored(), 0, plain(10), storage, logger);
    expect(() => second.maintainOnLoad()).not.toThrow();
    expect(warnings[0]).toMatch(/could not delete an event log segment/);
    expect(second.log.length).toBeLessThan(100);
  });

  it('hands out offsets from an empty last segment on, even when every record is gone', async () => {
    const stored: StoredPartition = { records: [], segments: [0, 700] };
    const partition = new Partition('usage', 0, stored, 0, plain(10), undefined, silentEventBusLogger);
    expect(partition.log.endOffset).toBe(700);
    await partition.append(records(1));
    expect(partition.log.read(0, 10).map((record) => record.offset)).toEqual([700]);
  });

  it('puts the segment it appends to back when an append fails', async () => {
    const storage = new FakeStorage();
    const partition = new Partition('usage', 0, none(), 0, plain(1000), storage, silentEventBusLogger);
    await publish(partition, 1, 3);
    const append = jest.spyOn(storage, 'append').mockRejectedValueOnce(new Error('disk full'));
    await expect(partition.append(records(1))).rejects.toThrow('disk full');
    append.mockRestore();
    expect(storage.calls).toEqual(['rewrite 0 (3 records)']);
  });
});

describe('Partition compaction', () => {
  it('keeps a compacted topic in one segment and rewrites it once it has doubled', async () => {
    const storage = new FakeStorage();
    const policy: PartitionPolicy = {
      compacted: true,
      retainRecords: 10,
      consumedBelow: () => Number.POSITIVE_INFINITY,
    };
    const partition = new Partition('balances', 0, none(), 0, policy, storage, silentEventBusLogger);
    const users = (['user-0', 'user-1', 'user-2'] as const).map((key) => records(1, key)[0]);
    for (let i = 0; i < 400; i++) await partition.append(users);
    await partition.drain();
    expect([...storage.segments.keys()]).toEqual([0]);
    // Compacted once it reached 1000 records (1002, after 334 appends): the three latest stay.
    expect(storage.calls).toEqual(['rewrite 0 (3 records)']);
    expect(storage.offsets()).toEqual([999, ...Array.from({ length: 200 }, (_, i) => 1000 + i)]);
  });

  it('refuses a compacted partition in more than one segment', () => {
    const policy: PartitionPolicy = { compacted: true, retainRecords: 10, consumedBelow: () => 0 };
    const stored: StoredPartition = { records: [], segments: [0, 10] };
    expect(() => new Partition('balances', 0, stored, 0, policy, undefined, silentEventBusLogger)).toThrow(
      /balances\/0: a compacted partition in more than one segment/,
    );
  });
});
