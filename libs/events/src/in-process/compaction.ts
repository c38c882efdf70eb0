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
 * Retention for plain topics, a whole segment at a time: how many of the oldest segments (given by
 * their base offsets, ascending) hold only records below `cut`, the lowest offset that must stay
 * (the oldest record some group has not consumed, the oldest of the newest records retention keeps,
 * the last record). A segment ends where the next begins, so the last segment always stays.
 */
export function segmentsBelow(segments: readonly number[], cut: number): number {
  let count = 0;
  while (count + 1 < segments.length && segments[count + 1] <= cut) count++;
  return count;
}
