import type { LogRecord } from '../log-record';

/** One record as one line; the value is embedded as the JSON it already is. */
export function encodeRecordLine(record: LogRecord): string {
  return `{"o":${record.offset},"k":${JSON.stringify(record.key)},"v":${record.value ?? 'null'},"h":${JSON.stringify(record.headers)},"t":${record.timestamp}}\n`;
}

export function decodeRecordLine(line: unknown): LogRecord {
  if (typeof line !== 'object' || line === null) throw new Error('not an object');
  const { o, k, v, h, t } = line as Record<string, unknown>;
  if (!Number.isSafeInteger(o) || (o as number) < 0) throw new Error('bad offset');
  if (typeof k !== 'string') throw new Error('bad key');
  if (v === undefined) throw new Error('missing value');
  if (typeof h !== 'object' || h === null || Object.values(h).some((x) => typeof x !== 'string')) {
    throw new Error('bad headers');
  }
  if (typeof t !== 'number') throw new Error('bad timestamp');
  return {
    offset: o as number,
    key: k,
    value: v === null ? null : JSON.stringify(v),
    headers: h as Record<string, string>,
    timestamp: t,
  };
}

/** A committed offset: the next offset group `g` will read from partition `p` of topic `t`. */
export interface OffsetEntry {
  groupId: string;
  topic: string;
  partition: number;
  offset: number;
}

export function encodeOffsetLine(entry: OffsetEntry): string {
  return `${JSON.stringify({ g: entry.groupId, t: entry.topic, p: entry.partition, o: entry.offset })}\n`;
}

export function decodeOffsetLine(line: unknown): OffsetEntry {
  if (typeof line !== 'object' || line === null) throw new Error('not an object');
  const { g, t, p, o } = line as Record<string, unknown>;
  if (typeof g !== 'string' || typeof t !== 'string') throw new Error('bad group or topic');
  if (!Number.isSafeInteger(p) || !Number.isSafeInteger(o)) throw new Error('bad partition or offset');
  return { groupId: g, topic: t, partition: p as number, offset: o as number };
}
