import { Controller } from '@nestjs/common';
import { TOPICS, usageRecordedV1 } from '@tollgate/contracts';
import { BusEvent, type DecodedEvent } from '@tollgate/runtime';
import { type UsageOfToken } from './token-usage';
import { TokenUsageRepository } from './token-usage.repository';

export const TOKEN_USAGE_GROUP = 'auth.token-usage';

/**
 * What this consumer reads of a usage.recorded event, checked and kept; the rest (prices, names,
 * timings) is dropped unchecked: checking it is most of zod's time per event, and billing, whose
 * settlement reads it, checks it against the whole schema.
 */
export const tokenUsageOfEvent = usageRecordedV1.pick({
  v: true,
  event_id: true,
  token_id: true,
  quota: true,
  created_at: true,
});

/** usage.recorded → API keys' used and remaining quota, last use and exhaustion. */
@Controller()
export class TokenUsageConsumer {
  constructor(private readonly usage: TokenUsageRepository) {}

  @BusEvent(TOPICS.usageRecorded.name, {
    group: TOKEN_USAGE_GROUP,
    schema: tokenUsageOfEvent,
    // Keys' counters may trail by a quarter second; relay enforces key quotas itself in the meantime.
    // Within that wait a fetch gathers up to 1 MiB (≈ 1,800 events; 64 KiB was ≈ 110, shared among
    // the partitions' batches): a batch's transaction costs far more than an event in it.
    batching: { minBytes: 1024 * 1024, maxWaitMs: 250 },
    // Money: wait out any failure, not only the infrastructure being away (every consumer's rule),
    // rather than dead-letter a key's spending (the chaos suite saw that after PostgreSQL was killed).
    isTransient: () => true,
  })
  async apply(events: DecodedEvent<UsageOfToken>[]): Promise<void> {
    await this.usage.apply(events.map((event) => event.value));
  }
}
