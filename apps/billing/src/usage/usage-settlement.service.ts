import { Injectable } from '@nestjs/common';
import { OutboxRelay } from '@tollgate/persistence';
import { MetricsService } from '@tollgate/platform';
import type { SettledUsage } from './settled-usage';
import { UsageSettlementRepository } from './usage-settlement.repository';

export interface SettlementResult {
  /** Events charged now; the rest had been settled before (redeliveries). */
  settled: number;
}

/**
 * One event per id, ids lower-cased as PostgreSQL's uuid type returns them, so an event repeated
 * within a batch is settled once like one repeated across batches.
 */
export function uniqueEvents<T extends SettledUsage>(batch: readonly T[]): T[] {
  const byId = new Map<string, T>();
  for (const event of batch) {
    const eventId = event.event_id.toLowerCase();
    if (!byId.has(eventId))
      byId.set(eventId, eventId === event.event_id ? event : { ...event, event_id: eventId });
  }
  return [...byId.values()];
}

/**
 * Settles usage events in one transaction: the usage-log rows, their ledger entries, the daily
 * statistics and the balances are written together, and an event id seen before changes nothing.
 */
@Injectable()
export class UsageSettlementService {
  constructor(
    private readonly repository: UsageSettlementRepository,
    private readonly outbox: OutboxRelay,
    private readonly metrics: MetricsService,
  ) {}

  async settle(batch: readonly SettledUsage[]): Promise<SettlementResult> {
    const events = uniqueEvents(batch);
    if (events.length === 0) return { settled: 0 };
    const settled = await this.repository.settle(events);
    if (settled.accounts > 0) this.outbox.nudge();
    this.recordMetrics(batch.length, settled.settled, settled.chargedByModel);
    return { settled: settled.settled };
  }

  /** Counted after the commit, so a rolled-back batch is counted when it is redelivered and settled. */
  private recordMetrics(
    received: number,
    settled: number,
    chargedByModel: ReadonlyMap<string, number>,
  ): void {
    const events = this.metrics.counter('usageEvents');
    if (settled > 0) events.inc({ outcome: 'settled' }, settled);
    if (received > settled) events.inc({ outcome: 'duplicate' }, received - settled);
    const charged = this.metrics.counter('chargedQuota');
    for (const [model, quota] of chargedByModel) charged.inc({ model }, quota);
  }
}
