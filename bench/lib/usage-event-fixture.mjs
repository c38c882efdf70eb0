import { randomUUID } from 'node:crypto';

/**
 * The i-th usage event of the Kafka micro-benchmarks (bench/micro/kafka-*.mjs): what relay publishes for
 * a plain call, with the headers CorrelatedEventBus adds to an event published inside a call; 50 users
 * and 4 channels in turn. `value` is the event object, not yet serialised.
 */
export function benchUsageEvent(i) {
  const userId = 1 + (i % 50);
  return {
    key: String(userId),
    headers: { 'x-request-id': `req-${randomUUID()}`, 'x-correlation-id': `req-${randomUUID()}` },
    value: {
      v: 1,
      event_id: randomUUID(),
      request_id: `req-${randomUUID()}`,
      user_id: userId,
      token_id: 1000 + userId,
      token_name: 'bench',
      channel_id: 1 + (i % 4),
      group: 'default',
      model: 'gpt-4o-mini',
      upstream_model: 'gpt-4o-mini-2024-07-18',
      prompt_tokens: 12,
      completion_tokens: 5,
      cached_tokens: 0,
      quota: 4,
      price: { input: '0.15', output: '0.6', cached_input: '0.075', group_ratio: '1' },
      latency_ms: 3,
      ttft_ms: null,
      is_stream: false,
      status: 'success',
      created_at: Math.floor(Date.now() / 1000),
      response_id: `chatcmpl-${randomUUID()}`,
      finish_reason: 'stop',
    },
  };
}
