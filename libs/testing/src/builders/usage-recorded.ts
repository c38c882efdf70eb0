import { randomUUID } from 'node:crypto';
import { TOPICS, type UsageRecorded } from '@tollgate/contracts';
import type { EventBus } from '@tollgate/events';
import { randomUserId } from '../service-harness/identity-user.fixture';

/**
 * A successful streamed call as relay reports it on usage.recorded, made now by a fresh user: 1200
 * prompt tokens (200 of them cached) and 300 completion tokens of gpt-4o-mini through key 7 ("ci")
 * and channel 3, charged 1000, answered in 2.5 s. Each call has a fresh event id; the request id
 * follows the event id, so the same event given twice is the same request.
 */
export function aUsageRecorded(overrides: Partial<UsageRecorded> = {}): UsageRecorded {
  const eventId = overrides.event_id ?? randomUUID();
  return {
    v: 1,
    event_id: eventId,
    request_id: `req-${eventId}`,
    user_id: randomUserId(),
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

/** Publishes usage.recorded as relay does: each event keyed by its user. */
export function publishUsage(bus: EventBus, events: readonly UsageRecorded[]): Promise<void> {
  return bus.publish(
    events.map((value) => ({ topic: TOPICS.usageRecorded.name, key: String(value.user_id), value })),
  );
}
