import { randomUUID } from 'node:crypto';
import type { CatalogOption, paymentCreateRequestSchema, UsageRecorded } from '@tollgate/contracts';
import { partitionForKey } from '@tollgate/events';
import { TOPIC_PARTITIONS } from '@tollgate/testing';
import type { z } from 'zod';

/**
 * A successful streamed call of `userId` as relay reports it on usage.recorded, made now: 1200
 * prompt tokens (200 of them cached) and 300 completion tokens of gpt-4o-mini through key 7 ("ci")
 * and channel 3, charged 1000, answered in 2.5 s. The request id follows the event id.
 */
export function aUsageEvent(userId: number, overrides: Partial<UsageRecorded> = {}): UsageRecorded {
  const eventId = overrides.event_id ?? randomUUID();
  return {
    v: 1,
    event_id: eventId,
    request_id: `req-${eventId}`,
    user_id: userId,
    token_id: 7,
    token_name: 'ci',
    channel_id: 3,
    group: 'default',
    model: 'gpt-4o-mini',
    upstream_model: 'gpt-4o-mini-2024-07-18',
    prompt_tokens: 1200,
    completion_tokens: 300,
    cached_tokens: 200,
    quota: 1000,
    price: { input: '0.15', output: '0.6', cached_input: '0.075', group_ratio: '1' },
    latency_ms: 2500,
    ttft_ms: 120,
    is_stream: true,
    status: 'success',
    created_at: Math.floor(Date.now() / 1000),
    ...overrides,
  };
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
  const partition = partitionForKey(String(userId), TOPIC_PARTITIONS);
  let candidate = userId + 1;
  while (partitionForKey(String(candidate), TOPIC_PARTITIONS) !== partition) candidate += 1;
  return candidate;
}
