// A service's usage.recorded consumer built from its compiled modules, outside Nest: what the micros that
// feed batches straight to auth's, billing's or admin's consumer share. `load` requires a module of the
// service's dist; `em` is the service's MikroORM entity manager.
import { randomUUID } from 'node:crypto';
import { v7 as timeOrderedUuid } from 'uuid';

/** The consumer and its batch handler (call it as `handler.call(consumer, batch)`). */
export function usageConsumerOf(service, em, load) {
  const outbox = { nudge: () => undefined };
  if (service === 'auth') {
    const { TokenUsageRepository } = load('./token-usage/token-usage.repository.js');
    const { TokenUsageConsumer } = load('./token-usage/token-usage.consumer.js');
    return {
      consumer: new TokenUsageConsumer(new TokenUsageRepository(em, outbox)),
      handler: TokenUsageConsumer.prototype.apply,
    };
  }
  if (service === 'billing') {
    const { UsageSettlementRepository } = load('./usage/usage-settlement.repository.js');
    const { UsageSettlementService } = load('./usage/usage-settlement.service.js');
    const { UsageRecordedConsumer } = load('./usage/usage-recorded.consumer.js');
    const metrics = { counter: () => ({ inc: () => undefined }) };
    return {
      consumer: new UsageRecordedConsumer(
        new UsageSettlementService(new UsageSettlementRepository(em), outbox, metrics),
      ),
      handler: UsageRecordedConsumer.prototype.settle,
    };
  }
  const { ChannelUsageRepository } = load('./channels/channel-usage.repository.js');
  const { ChannelUsageConsumer } = load('./channels/channel-usage.consumer.js');
  return {
    consumer: new ChannelUsageConsumer(new ChannelUsageRepository(em)),
    handler: ChannelUsageConsumer.prototype.record,
  };
}

const PRICE = { input: '0.15', output: '0.6', cached_input: '0.075', group_ratio: '1' };

/** A usage.recorded event of a small non-streaming call, as relay publishes it, for the given ids. */
export function benchUsageEvent({ userId, tokenId, channelId, createdAt }) {
  return {
    v: 1,
    // Time-ordered, as relay makes them: applied_usage_events' primary key grows at its right edge.
    event_id: timeOrderedUuid(),
    request_id: `bench-${randomUUID()}`,
    user_id: userId,
    token_id: tokenId,
    token_name: 'bench key',
    channel_id: channelId,
    group: 'default',
    model: 'bench-gpt',
    upstream_model: 'gpt-4o-mini',
    prompt_tokens: 12,
    completion_tokens: 16,
    cached_tokens: 0,
    quota: 6,
    price: PRICE,
    latency_ms: 1,
    ttft_ms: null,
    is_stream: false,
    status: 'success',
    created_at: createdAt,
  };
}
