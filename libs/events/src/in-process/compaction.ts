import type { LogRecord } from './log-record';

/**
 * Keeps the latest record per key, in offset order, like Kafka's log cleaner. Tombstones below
 * `dropTombstonesBelow` (offsets every consumer group has already passed) are removed too.
 * The last record always stays, so the partition's next offset survives a restart.
 */
export function compactRecords(records: readonly LogRecord[], dropTombstonesBelow: number): LogRecord[] {
  if (records.length === 0) return [];
  const latestByKey = new Map<string, number>();
  records.forEach((record, index) => latestByKey.set(record.key, index));
  const lastIndex = records.length - 1;
  return records.filter((record, index) => {
    if (index === lastIndex) return true;
    if (latestByKey.get(record.key) !== index) return false;
    return record.value !== null || record.offset >= dropTombstonesBelow;
  });
}

/**
 * Retention for plain topics: drops the oldest records beyond `keep`, but never one that some
 * consumer group has not yet consumed (offset >= `consumedBelow`), and never the last one.
 */
export function trimRecords(records: readonly LogRecord[], keep: number, consumedBelow: number): LogRecord[] {
  if (records.length <= Math.max(keep, 1)) return [...records];
  const lastOffset = records[records.length - 1].offset;
  const cut = Math.min(consumedBelow, records[records.length - Math.max(keep, 1)].offset, lastOffset);
  return records.filter((record) => record.offset >= cut);
}
