import { Controller } from '@nestjs/common';
import { TOPICS, usageRecordedV1, type UsageRecorded } from '@tollgate/contracts';
import { BusEvent, type DecodedEvent } from '@tollgate/runtime';
import { ChannelUsageRepository } from './channel-usage.repository';

/** The declared group; CHANNEL_USAGE_CONSUMER_GROUP replaces it (the transport's groupIds). */
export const CHANNEL_USAGE_GROUP = 'admin.channel-usage';

/**
 * What this consumer reads of a usage.recorded event, checked and kept; the rest (prices, names,
 * timings) is dropped unchecked: checking it is most of zod's time per event, and billing, whose
 * settlement reads it, checks it against the whole schema.
 */
export const channelUsageOfEvent = usageRecordedV1.pick({
  v: true,
  event_id: true,
  channel_id: true,
  quota: true,
});

/**
 * Keeps channels' used_quota from usage.recorded. Offsets are committed after the handler resolves,
 * so a crash redelivers the batch and the recorded event ids make that a no-op.
 */
@Controller()
export class ChannelUsageConsumer {
  constructor(private readonly usage: ChannelUsageRepository) {}

  @BusEvent(TOPICS.usageRecorded.name, {
    group: CHANNEL_USAGE_GROUP,
    schema: channelUsageOfEvent,
    // Channel statistics may trail by a second; larger batches cost far less per event, and each
    // batch's fetch and statement wake admin, the broker and PostgreSQL: once a second at low rates
    // instead of four times (bench/ANALYSIS.md, H60). Under load 1 MiB (≈ 1,800 events) comes first.
    batching: { minBytes: 1024 * 1024, maxWaitMs: 1000 },
    // Money: wait out any failure, not only the infrastructure being away (every consumer's rule),
    // rather than dead-letter a channel's usage (the chaos suite saw that after PostgreSQL was killed).
    isTransient: () => true,
  })
  async record(
    events: DecodedEvent<Pick<UsageRecorded, 'event_id' | 'channel_id' | 'quota'>>[],
  ): Promise<void> {
    await this.usage.record(events.map((event) => event.value));
  }
}
