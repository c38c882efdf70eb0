import type { CatalogOption, paymentCreateRequestSchema, UsageRecorded } from '@tollgate/contracts';
import { partitionForKey } from '@tollgate/events';
import { aUsageRecorded, TOPIC_PARTITIONS } from '@tollgate/testing';
import type { z } from 'zod';

/** `aUsageRecorded` of `userId`: a successful streamed call charged 1000, made now. */
export function aUsageEvent(userId: number, overrides: Partial<UsageRecorded> = {}): UsageRecorded {
  return aUsageRecorded({ user_id: userId, ...overrides });
}

/** An operator's setting as admin publishes it on catalog.option (an empty value clears it). */
export function aCatalogOption(key: string, value: string): CatalogOption {
  return { v: 1, key, value, updated_at: Math.floor(Date.now() / 1000) };
}

/** `POST /api/user/payment`'s body: a top-up of 1000 RUB by test payment, receipt to payer@example.com. */
export function aPaymentRequest(
  overrides: Partial<z.input<typeof paymentCreateRequestSchema>> = {},
): z.input<typeof paymentCreateRequestSchema> {
  return { amount: '1000', provider: 'test', email: 'payer@example.com', ...overrides };
}

/**
 * The next user id after `userId` whose events land on the same partition, so both share
 * batches and, a partition being consumed in order, one's record is handled after the other's.
 */
export function userOnSamePartition(userId: number): number {
  return nextUser(userId, { samePartition: true });
}

/** The next user id after `userId` whose events land on another partition, so two partitions are at work. */
export function userOnOtherPartition(userId: number): number {
  return nextUser(userId, { samePartition: false });
}

function nextUser(userId: number, { samePartition }: { samePartition: boolean }): number {
  const partitionOf = (id: number) => partitionForKey(String(id), TOPIC_PARTITIONS);
  let candidate = userId + 1;
  while ((partitionOf(candidate) === partitionOf(userId)) !== samePartition) candidate += 1;
  return candidate;
}
