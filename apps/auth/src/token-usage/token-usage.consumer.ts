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
    // Keys' counters may trail by a second: relay enforces key quotas itself meanwhile (its
    // reservations are held until the published remain_quota has them, RELAY_QUOTA_HOLD_MS). Each
    // batch costs a fetch, a statement, an identity.token produce and a fetch in relay's table reader,
    // each a wake-up of a process and of the broker: a second instead of a quarter makes them once a
    // second at low rates (bench/ANALYSIS.md, H60). Under load 1 MiB (≈ 1,800 events) comes first.
    batching: { minBytes: 1024 * 1024, maxWaitMs: 1000 },
    // Money: wait out any failure, not only the infrastructure being away (every consumer's rule),
    // rather than dead-letter a key's spending (the chaos suite saw that after PostgreSQL was killed).
    isTransient: () => true,
  })
  async apply(events: DecodedEvent<UsageOfToken>[]): Promise<void> {
    await this.usage.apply(events.map((event) => event.value));
  }
}
