import { Inject, Injectable } from '@nestjs/common';
import { TOPICS, usageRecordedV1, type UsageRecorded } from '@tollgate/contracts';
import { EVENT_BUS, type EventBus } from '@tollgate/events';
import { InjectServiceConfig } from '@tollgate/platform';
import { BusConsumer, type DecodedEvent } from '@tollgate/runtime';
import type { AdminConfig } from '../config';
import { ChannelUsageRepository, type ChannelCharge } from './channel-usage.repository';

const REMEMBER_EVENTS_MS = 30 * 24 * 3600 * 1000;
const FORGET_EVERY_MS = 3600 * 1000;

/**
 * Keeps channels' used_quota from usage.recorded. Offsets are committed after the handler resolves,
 * so a crash redelivers the batch and the recorded event ids make that a no-op.
 */
@Injectable()
export class ChannelUsageConsumer extends BusConsumer<UsageRecorded> {
  private lastForgotten = 0;

  constructor(
    @Inject(EVENT_BUS) bus: EventBus,
    private readonly usage: ChannelUsageRepository,
    @InjectServiceConfig() config: AdminConfig,
  ) {
    super(bus, {
      groupId: config.CHANNEL_USAGE_CONSUMER_GROUP,
      topics: [TOPICS.usageRecorded.name],
      schema: usageRecordedV1,
      // Channel statistics may trail by a quarter second; larger batches cost far less per event.
      batching: { minBytes: 64 * 1024, maxWaitMs: 250 },
      // Money: wait out any failure, not only the infrastructure being away (BusConsumer's default),
      // rather than dead-letter a channel's usage (the chaos suite saw that after PostgreSQL was killed).
      isTransient: () => true,
    });
  }

  async handle(events: DecodedEvent<UsageRecorded>[]): Promise<void> {
    const charges: ChannelCharge[] = [];
    for (const { value: event } of events) {
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
