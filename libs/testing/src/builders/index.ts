export { aUsageRecorded, publishUsage } from './usage-recorded';
