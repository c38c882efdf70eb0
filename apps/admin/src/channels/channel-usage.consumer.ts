import { Inject, Injectable } from '@nestjs/common';
import { TOPICS, usageRecordedV1 } from '@tollgate/contracts';
import { EVENT_BUS, type EventBus, type EventRecord } from '@tollgate/events';
import { InjectLogger, InjectServiceConfig, type Logger } from '@tollgate/platform';
import { BusConsumer } from '@tollgate/runtime';
import type { AdminConfig } from '../config';
import { ChannelUsageRepository, type ChannelCharge } from './channel-usage.repository';

const REMEMBER_EVENTS_MS = 30 * 24 * 3600 * 1000;
const FORGET_EVERY_MS = 3600 * 1000;

/**
 * Keeps channels' used_quota from usage.recorded. Offsets are committed after the handler resolves,
 * so a crash redelivers the batch and the recorded event ids make that a no-op. A record that fails
 * validation is skipped with a warning: billing, which charges it, already dead-letters it.
 */
@Injectable()
export class ChannelUsageConsumer extends BusConsumer {
  private lastForgotten = 0;

  constructor(
    @Inject(EVENT_BUS) bus: EventBus,
    private readonly usage: ChannelUsageRepository,
    @InjectLogger() private readonly logger: Logger,
    @InjectServiceConfig() config: AdminConfig,
  ) {
    super(bus, {
      groupId: config.CHANNEL_USAGE_CONSUMER_GROUP,
      topics: [TOPICS.usageRecorded.name],
      // Channel statistics may trail by a quarter second; larger batches cost far less per event.
      batching: { minBytes: 64 * 1024, maxWaitMs: 250 },
      // Malformed records are skipped below, so whatever still throws is the database away: wait for
      // it rather than dead-letter a channel's usage (the chaos suite saw that after PostgreSQL was killed).
      isTransient: () => true,
    });
  }

  async handle(batch: EventRecord[]): Promise<void> {
    const charges: ChannelCharge[] = [];
    for (const record of batch) {
      const parsed = usageRecordedV1.safeParse(record.value);
      if (!parsed.success) {
        this.logger.warn(
          { topic: record.topic, offset: record.offset },
          'usage event skipped: not a usage.recorded v1',
        );
        continue;
      }
      const event = parsed.data;
      if (event.channel_id !== null && event.quota > 0) {
        charges.push({ eventId: event.event_id, channelId: event.channel_id, quota: event.quota });
      }
    }
    await this.usage.add(charges);
    if (Date.now() - this.lastForgotten > FORGET_EVERY_MS) {
      this.lastForgotten = Date.now();
      await this.usage.forgetBefore(new Date(Date.now() - REMEMBER_EVENTS_MS));
    }
  }
}
