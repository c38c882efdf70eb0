import { Controller, Logger } from '@nestjs/common';
import { TOPICS, usageRecordedV1 } from '@tollgate/contracts';
import { BusEvent, type DecodedEvent } from '@tollgate/runtime';
import type { SettledUsage } from './settled-usage';
import { UsageSettlementService } from './usage-settlement.service';

export const USAGE_GROUP = 'billing.usage';

/**
 * What settlement reads of a usage event, validated as the contract says: every field but the prices
 * the charge was computed with (zod builds its output per field, so a field it skips costs nothing).
 */
export const settledUsageOfEvent = usageRecordedV1.omit({ price: true });

/**
 * Charges usage.recorded, one transaction per batch. The bus commits offsets only after the
 * handler resolves, so a crash after the database commit redelivers the batch, and the unique
 * event id makes that a no-op. A record that fails validation never gets here (the bus
 * dead-letters it at once), so any failure here (the database away, …) is retried for as long as
 * it lasts: a usage event dropped to the dead-letter topic would be a served call never charged
 * (found by the chaos suite: PostgreSQL killed for five seconds).
 */
@Controller()
export class UsageRecordedConsumer {
  private readonly logger = new Logger(UsageRecordedConsumer.name);

  constructor(private readonly settlement: UsageSettlementService) {}

  @BusEvent(TOPICS.usageRecorded.name, {
    group: USAGE_GROUP,
    schema: settledUsageOfEvent,
    // One statement per batch, and per batch one ledger entry, rollup row, balance update and
    // billing.balance per user, which every balances reader (relay's, auth's) is woken to fetch: a
    // quarter second of gathering makes batches larger and each event's share of all that smaller.
    // Up to 4 MiB (a partition's largest fetch), not auth's and admin's 1 MiB: at 20,000 events/s
    // 1 MiB came every ~0.1 s in batches of ~700 events a partition, where PostgreSQL hits 32 buffers
    // an event against 22 at 1,700 (bench/ANALYSIS.md, H58). Balances still trail by at most the
    // quarter second, well inside relay's hold (RELAY_QUOTA_HOLD_MS, 60 s).
    batching: { minBytes: 4 * 1024 * 1024, maxWaitMs: 250 },
    // Its committed position is the lag operators and the bench read for settlement (target < 1 s):
    // each partition's batch commits as soon as its transaction has, not at the next quarter second
    // (it waited up to 0.25 s more at 20,000 events/s, bench/ANALYSIS.md, h112). A fetch comes at
    // most about four times a second, a batch a partition: up to ~12 OffsetCommits a second, not ~4.
    commitIntervalMs: 0,
    isTransient: () => true,
  })
  async settle(batch: DecodedEvent<SettledUsage>[]): Promise<void> {
    const events = batch.map((event) => event.value);
    const { settled } = await this.settlement.settle(events);
    if (settled < events.length)
      this.logger.log(`skipped ${events.length - settled} usage event(s) settled before`);
  }
}
