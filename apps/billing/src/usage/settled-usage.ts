import type { UsageRecorded } from '@tollgate/contracts';

/** A usage event as settlement reads it: the contract's, without the prices the charge was computed with. */
export type SettledUsage = Omit<UsageRecorded, 'price'>;
