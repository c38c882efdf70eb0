import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import type { UsageRecorded } from '@tollgate/contracts';
import { OutboxRelay } from '@tollgate/persistence';
import { MetricsService } from '@tollgate/platform';
import { LedgerEntryKind } from '../ledger/ledger-entry.entity';
import { LedgerService } from '../ledger/ledger.service';
import type { LedgerPosting } from '../ledger/posting';
import { dailyUsageDeltas } from '../statistics/daily-usage';
import { StatisticsRepository } from '../statistics/statistics.repository';

export interface SettlementResult {
  /** Events charged now; the rest had been settled before (redeliveries). */
  settled: number;
}

const USAGE_LOG_COLUMNS = [
  'event_id',
  'created_at',
  'user_id',
  'token_id',
  'token_name',
  'channel_id',
  'model',
  'upstream_model',
  'prompt_tokens',
  'completion_tokens',
  'cached_tokens',
  'quota',
  'latency_ms',
  'ttft_ms',
  'is_stream',
  'status',
  'group',
  'request_id',
  'response_id',
  'finish_reason',
] as const;

function usageLogValues(event: UsageRecorded): unknown[] {
  return [
    event.event_id,
    new Date(event.created_at * 1000),
    event.user_id,
    event.token_id,
    event.token_name,
    event.channel_id,
    event.model,
    event.upstream_model,
    event.prompt_tokens,
    event.completion_tokens,
    event.cached_tokens,
    event.quota,
    event.latency_ms,
    event.ttft_ms,
    event.is_stream,
    event.status,
    event.group,
    event.request_id,
    event.response_id ?? null,
    event.finish_reason ?? null,
  ];
}

/** Keeps PostgreSQL's 65 535 bind parameters out of reach (20 per row). */
const ROWS_PER_INSERT = 1000;

/**
 * One event per id, ids lower-cased as PostgreSQL's uuid type returns them, so an event repeated
 * within a batch is settled once like one repeated across batches.
 */
function uniqueEvents(batch: readonly UsageRecorded[]): UsageRecorded[] {
  const byId = new Map<string, UsageRecorded>();
  for (const event of batch) {
    const eventId = event.event_id.toLowerCase();
    if (!byId.has(eventId)) byId.set(eventId, { ...event, event_id: eventId });
  }
  return [...byId.values()];
}

/** A usage event as a ledger debit keyed by its event id. */
export function usagePosting(event: UsageRecorded): LedgerPosting {
  return {
    userId: event.user_id,
    kind: LedgerEntryKind.Usage,
    amount: -event.quota,
    idempotencyKey: `usage:${event.event_id}`,
    note: `${event.model} ${event.request_id}`,
    usedQuota: event.quota,
    requestCount: 1,
  };
}

/**
 * Settles usage events in one transaction: the usage-log rows, their ledger entries and the daily
 * statistics are written together, and an event id seen before changes nothing.
 */
@Injectable()
export class UsageSettlementService {
  constructor(
    private readonly em: EntityManager,
    private readonly ledger: LedgerService,
    private readonly outbox: OutboxRelay,
    private readonly statistics: StatisticsRepository,
    private readonly metrics: MetricsService,
  ) {}

  async settle(batch: readonly UsageRecorded[]): Promise<SettlementResult> {
    const events = uniqueEvents(batch);
    if (events.length === 0) return { settled: 0 };
    const result = await this.em.fork().transactional(async (tx) => {
      await this.openMissingAccounts(tx, events);
      const logged = await this.insertUsageLogs(tx, events);
      const fresh = events.filter((event) => logged.has(event.event_id));
      const { postedKeys } = await this.ledger.post(tx, fresh.map(usagePosting));
      if (postedKeys.length !== fresh.length) {
        // The log row and the entry are written together, so a fresh log row with an old entry is corruption.
        throw new Error('usage log and ledger disagree about which usage events were settled before');
      }
      // Only events logged now count, so a redelivery never inflates the daily statistics.
      await this.statistics.add(tx, dailyUsageDeltas(fresh));
      return { settled: fresh.length, fresh };
    });
    if (result.settled > 0) this.outbox.nudge();
    this.recordMetrics(batch.length, result.fresh);
    return { settled: result.settled };
  }

  /** Counted after the commit, so a rolled-back batch is counted when it is redelivered and settled. */
  private recordMetrics(received: number, fresh: readonly UsageRecorded[]): void {
    const events = this.metrics.counter('usageEvents');
    if (fresh.length > 0) events.inc({ outcome: 'settled' }, fresh.length);
    if (received > fresh.length) events.inc({ outcome: 'duplicate' }, received - fresh.length);
    const charged = this.metrics.counter('chargedQuota');
    for (const event of fresh) if (event.quota > 0) charged.inc({ model: event.model }, event.quota);
  }

  /** A user billed before identity.user reached billing gets an account (balance 0) first. */
  private async openMissingAccounts(tx: EntityManager, events: readonly UsageRecorded[]): Promise<void> {
    const userIds = [...new Set(events.map((event) => event.user_id))].sort((a, b) => a - b);
    await tx.execute(
      `insert into accounts (user_id) values ${userIds.map(() => '(?)').join(', ')}
       on conflict (user_id) do nothing`,
      userIds,
      'run',
    );
  }

  /** Returns the event ids inserted now; ON CONFLICT keeps a redelivery from aborting the transaction. */
  private async insertUsageLogs(tx: EntityManager, events: readonly UsageRecorded[]): Promise<Set<string>> {
    const placeholders = `(${USAGE_LOG_COLUMNS.map(() => '?').join(', ')})`;
    const inserted = new Set<string>();
    for (let start = 0; start < events.length; start += ROWS_PER_INSERT) {
      const chunk = events.slice(start, start + ROWS_PER_INSERT);
      const rows = await tx.execute<{ event_id: string }[]>(
        `insert into usage_logs (${USAGE_LOG_COLUMNS.map((c) => `"${c}"`).join(', ')})
         values ${chunk.map(() => placeholders).join(', ')}
         on conflict (event_id) do nothing returning event_id`,
        chunk.flatMap(usageLogValues),
        'all',
      );
      for (const row of rows) inserted.add(row.event_id);
    }
    return inserted;
  }
}
