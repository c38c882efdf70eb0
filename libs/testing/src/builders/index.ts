export { aUsageRecorded, publishUsage } from './usage-recorded';
export {
  aPriceSnapshotWithCacheWrites,
  aPriceWithCacheWrites,
  aUsageRecordedWithCacheWrites,
  aUsageWithCacheWrites,
} from './cache-writes';
