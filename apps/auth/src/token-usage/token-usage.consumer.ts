import { Inject, Injectable, Logger } from '@nestjs/common';
import { TOPICS, usageRecordedV1 } from '@tollgate/contracts';
import { EVENT_BUS, type EventBus, type EventRecord } from '@tollgate/events';
import { BusConsumer } from '@tollgate/runtime';
import type { UsageOfToken } from './token-usage';
import { TokenUsageRepository } from './token-usage.repository';

export const TOKEN_USAGE_GROUP = 'auth.token-usage';

/** usage.recorded → API keys' used and remaining quota, last use and exhaustion. */
@Injectable()
export class TokenUsageConsumer extends BusConsumer {
  private readonly logger = new Logger(TokenUsageConsumer.name);

  constructor(
    @Inject(EVENT_BUS) bus: EventBus,
    private readonly usage: TokenUsageRepository,
  ) {
    super(bus, {
      groupId: TOKEN_USAGE_GROUP,
      topics: [TOPICS.usageRecorded.name],
      // Keys' counters may trail by a quarter second; relay enforces key quotas itself in the meantime.
      batching: { minBytes: 64 * 1024, maxWaitMs: 250 },
      // Malformed records are skipped below, so whatever still throws is the database away: wait for
      // it rather than dead-letter a key's spending (the chaos suite saw that after PostgreSQL was killed).
      isTransient: () => true,
    });
  }

  async handle(batch: EventRecord[]): Promise<void> {
    const events: UsageOfToken[] = [];
    for (const record of batch) {
      const parsed = usageRecordedV1.safeParse(record.value);
      if (parsed.success) events.push(parsed.data);
      // A malformed event would stop the partition for good if it threw; billing owns its repair.
      else this.logger.warn(`skipped a malformed usage.recorded record at offset ${record.offset}`);
    }
    await this.usage.apply(events);
  }
}
