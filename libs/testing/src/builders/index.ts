export { aUsageRecorded } from './usage-recorded';
