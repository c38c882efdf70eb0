import { Inject, Injectable } from '@nestjs/common';
import { TOPICS, usageRecordedV1, type UsageRecorded } from '@tollgate/contracts';
import { EVENT_BUS, type EventBus } from '@tollgate/events';
import { BusConsumer, type DecodedEvent } from '@tollgate/runtime';
import { TokenUsageRepository } from './token-usage.repository';

export const TOKEN_USAGE_GROUP = 'auth.token-usage';

/** usage.recorded → API keys' used and remaining quota, last use and exhaustion. */
@Injectable()
export class TokenUsageConsumer extends BusConsumer<UsageRecorded> {
  constructor(
    @Inject(EVENT_BUS) bus: EventBus,
    private readonly usage: TokenUsageRepository,
  ) {
    super(bus, {
      groupId: TOKEN_USAGE_GROUP,
      topics: [TOPICS.usageRecorded.name],
      schema: usageRecordedV1,
      // Keys' counters may trail by a quarter second; relay enforces key quotas itself in the meantime.
      batching: { minBytes: 64 * 1024, maxWaitMs: 250 },
      // Money: wait out any failure, not only the infrastructure being away (BusConsumer's default),
      // rather than dead-letter a key's spending (the chaos suite saw that after PostgreSQL was killed).
      isTransient: () => true,
    });
  }

  async handle(events: DecodedEvent<UsageRecorded>[]): Promise<void> {
    await this.usage.apply(events.map((event) => event.value));
  }
}
