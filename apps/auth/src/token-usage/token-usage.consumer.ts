import { Controller } from '@nestjs/common';
import { TOPICS, usageRecordedV1, type UsageRecorded } from '@tollgate/contracts';
import { BusEvent, type DecodedEvent } from '@tollgate/runtime';
import { TokenUsageRepository } from './token-usage.repository';

export const TOKEN_USAGE_GROUP = 'auth.token-usage';

/** usage.recorded → API keys' used and remaining quota, last use and exhaustion. */
@Controller()
export class TokenUsageConsumer {
  constructor(private readonly usage: TokenUsageRepository) {}

  @BusEvent(TOPICS.usageRecorded.name, {
    group: TOKEN_USAGE_GROUP,
    schema: usageRecordedV1,
    // Keys' counters may trail by a quarter second; relay enforces key quotas itself in the meantime.
    batching: { minBytes: 64 * 1024, maxWaitMs: 250 },
    // Money: wait out any failure, not only the infrastructure being away (every consumer's rule),
    // rather than dead-letter a key's spending (the chaos suite saw that after PostgreSQL was killed).
    isTransient: () => true,
  })
  async apply(events: DecodedEvent<UsageRecorded>[]): Promise<void> {
    await this.usage.apply(events.map((event) => event.value));
  }
}
