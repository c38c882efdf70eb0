import { parseJsonLines } from './json-lines';
import { decodeOffsetLine, decodeRecordLine, encodeOffsetLine, encodeRecordLine } from './record-lines';
import type { LogRecord } from '../log-record';

const record = (offset: number, value: string | null): LogRecord => ({
  offset,
  key: `key-${offset}`,
  value,
  headers: { 'x-request-id': `r${offset}` },
  timestamp: 1_700_000_000_000 + offset,
});

const parseRecords = (text: string) =>
  parseJsonLines(Buffer.from(text, 'utf8'), decodeRecordLine, 'test.jsonl');

describe('record lines', () => {
  it('round-trips values, tombstones and headers', () => {
    const records = [record(0, '{"price":1.5,"name":"gpt-4o"}'), record(1, null), record(2, '"ключ"')];
    const parsed = parseRecords(records.map(encodeRecordLine).join(''));
    expect(parsed.entries).toEqual(records);
  });

  it('round-trips committed offsets', () => {
    const entry = { groupId: 'billing', topic: 'usage.recorded', partition: 2, offset: 41 };
    const parsed = parseJsonLines(Buffer.from(encodeOffsetLine(entry)), decodeOffsetLine, 'offsets.jsonl');
    expect(parsed.entries).toEqual([entry]);
  });
});

describe('parseJsonLines', () => {
  const intact = [record(0, '1'), record(1, '2')].map(encodeRecordLine).join('');

  it('ignores a torn last line and reports where the intact data ends', () => {
    const torn = intact + encodeRecordLine(record(2, '3')).slice(0, 20);
    const parsed = parseRecords(torn);
    expect(parsed.entries.map((r) => r.offset)).toEqual([0, 1]);
    expect(parsed.intactBytes).toBe(Buffer.byteLength(intact));
  });

  it('treats garbage after the last good line (even newline-terminated) as torn', () => {
    const parsed = parseRecords(`${intact}\u0000\u0000\u0000\n{"o":2,"k"\n`);
    expect(parsed.entries).toHaveLength(2);
    expect(parsed.intactBytes).toBe(Buffer.byteLength(intact));
  });

  it('accepts an empty file and blank lines', () => {
    expect(parseRecords('')).toEqual({ entries: [], intactBytes: 0 });
    expect(parseRecords(`\n${intact}`).entries).toHaveLength(2);
  });

  it('refuses a corrupt line in the middle of intact data', () => {
    expect(() => parseRecords(`${intact}not json\n${encodeRecordLine(record(2, '3'))}`)).toThrow(
      /test.jsonl: corrupt line/,
    );
  });

  it('counts multi-byte characters in bytes, not characters', () => {
    const text = encodeRecordLine(record(0, '"цена"'));
    expect(parseRecords(`${text}{"o":`).intactBytes).toBe(Buffer.byteLength(text));
  });
});
