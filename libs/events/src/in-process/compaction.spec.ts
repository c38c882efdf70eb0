import { compactRecords, trimRecords } from './compaction';
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

describe('trimRecords', () => {
  const log = Array.from({ length: 10 }, (_, i) => record(i, `k${i}`, '1'));

  it('keeps the newest records when every group has consumed the rest', () => {
    expect(trimRecords(log, 3, Number.POSITIVE_INFINITY).map((r) => r.offset)).toEqual([7, 8, 9]);
  });

  it('never drops a record a group has not consumed yet', () => {
    expect(trimRecords(log, 3, 4).map((r) => r.offset)).toEqual([4, 5, 6, 7, 8, 9]);
  });

  it('leaves a short log alone and keeps at least the last record', () => {
    expect(trimRecords(log.slice(0, 2), 3, 0)).toHaveLength(2);
    expect(trimRecords(log, 0, Number.POSITIVE_INFINITY).map((r) => r.offset)).toEqual([9]);
  });
});
