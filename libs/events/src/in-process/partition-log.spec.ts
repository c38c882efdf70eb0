import type { LogRecord } from './log-record';
import { PartitionLog } from './partition-log';

const record = (offset: number, key = `k${offset}`): LogRecord => ({
  offset,
  key,
  value: String(offset),
  headers: {},
  timestamp: 0,
});

describe('PartitionLog', () => {
  it('reads from an offset in a sparse (compacted) log', () => {
    const log = new PartitionLog('t', 0, [record(2), record(5), record(9)]);
    expect(log.read(0, 10).map((r) => r.offset)).toEqual([2, 5, 9]);
    expect(log.read(3, 10).map((r) => r.offset)).toEqual([5, 9]);
    expect(log.read(5, 1).map((r) => r.offset)).toEqual([5]);
    expect(log.read(10, 10)).toEqual([]);
    expect([log.startOffset, log.endOffset]).toEqual([2, 10]);
  });

  it('hands out offsets after the last record and never below the floor', () => {
    expect(new PartitionLog('t', 0, [record(4)]).assignOffsets([record(0)])[0].offset).toBe(5);
    const floored = new PartitionLog('t', 0, [record(4)], 12);
    expect(floored.assignOffsets([record(0), record(0)]).map((r) => r.offset)).toEqual([12, 13]);
  });

  it('refuses records out of offset order', () => {
    expect(() => new PartitionLog('t', 3, [record(2), record(2)])).toThrow(/t\/3: offsets out of order/);
  });

  it('wakes a waiting reader and tells listeners when records become visible', async () => {
    const log = new PartitionLog('t', 0, []);
    const seen: number[] = [];
    log.onAppend((records) => seen.push(...records.map((r) => r.offset)));
    const waiting = log.waitForRecords(0, new AbortController().signal);
    log.makeVisible(log.assignOffsets([record(0), record(0)]));
    await waiting;
    expect(seen).toEqual([0, 1]);
    expect(log.endOffset).toBe(2);
  });

  it('stops waiting when the signal aborts', async () => {
    const log = new PartitionLog('t', 0, []);
    const controller = new AbortController();
    const waiting = log.waitForRecords(0, controller.signal);
    controller.abort();
    await expect(waiting).resolves.toBeUndefined();
  });
});
