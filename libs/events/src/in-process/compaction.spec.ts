import { compactRecords, segmentsBelow } from './compaction';
import type { LogRecord } from './log-record';

function record(offset: number, key: string, value: string | null): LogRecord {
  return { offset, key, value, headers: {}, timestamp: offset };
}

const summary = (records: LogRecord[]) => records.map((r) => `${r.offset}:${r.key}=${r.value}`);

describe('compactRecords', () => {
  it('keeps only the latest value per key, in offset order', () => {
    const log = [
      record(0, 'a', '1'),
      record(1, 'b', '1'),
      record(2, 'a', '2'),
      record(3, 'c', '1'),
      record(4, 'b', '2'),
    ];
    expect(summary(compactRecords(log, 0))).toEqual(['2:a=2', '3:c=1', '4:b=2']);
  });

  it('drops tombstones every group has passed but keeps newer ones', () => {
    const log = [
      record(0, 'a', '1'),
      record(1, 'a', null),
      record(2, 'b', '1'),
      record(3, 'b', null),
      record(4, 'c', '1'),
    ];
    expect(summary(compactRecords(log, 2))).toEqual(['3:b=null', '4:c=1']);
    expect(summary(compactRecords(log, Number.POSITIVE_INFINITY))).toEqual(['4:c=1']);
  });

  it('always keeps the last record so the next offset is not reused after a restart', () => {
    const log = [record(0, 'a', '1'), record(1, 'a', null)];
    expect(summary(compactRecords(log, Number.POSITIVE_INFINITY))).toEqual(['1:a=null']);
    expect(compactRecords([], 0)).toEqual([]);
  });
});

describe('segmentsBelow', () => {
  it('counts the oldest segments that end at or below the cut', () => {
    expect(segmentsBelow([0, 10, 20, 30], 20)).toBe(2);
    expect(segmentsBelow([0, 10, 20, 30], 19)).toBe(1);
    expect(segmentsBelow([0, 10, 20, 30], 9)).toBe(0);
  });

  it('never counts the last segment, which is appended to', () => {
    expect(segmentsBelow([0, 10, 20], Number.POSITIVE_INFINITY)).toBe(2);
    expect(segmentsBelow([5], Number.POSITIVE_INFINITY)).toBe(0);
    expect(segmentsBelow([], 100)).toBe(0);
  });
});
