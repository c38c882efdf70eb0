// A service's usage.recorded consumer built from its compiled modules, outside Nest: what the micros that
// feed batches straight to auth's, billing's or admin's consumer share. `load` requires a module of the
// service's dist; `em` is the service's MikroORM entity manager.

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
