import type { EntityManager } from '@mikro-orm/postgresql';
import { backoffDelayMs, type EventBus } from '@tollgate/events';
import { queryRows } from '../database/query-rows';
import { toOutgoingEvent, type OutboxRow } from './outbox-event';
import { OutboxMessage } from './outbox-message.entity';

/** An unpublished row as the relay reads it (id: bigint, as text). */
type PendingRow = OutboxRow & { id: string };
/** A row of PUBLISH_BATCH: `behind` on each (on the one row of nulls when nothing was marked). */
type BatchRow = { behind: boolean } & ({ [K in keyof PendingRow]: null } | PendingRow);

/**
 * One round trip for what was three statements (lock the batch, look for older rows another relay
 * holds, mark the batch published; bench/ANALYSIS.md, H39). Locks the oldest unpublished rows that no
 * other relay holds (SKIP LOCKED), finds the first unpublished row below the batch's newest that the
 * batch lacks (the gap: held by another relay, which must publish it first), and marks published only
 * the batch's rows below the gap, returned in id order. The gap can fall inside the batch, not just
 * before it: two relays locking concurrently take interleaved rows (one 13, 17, 18, the other 14, 15,
 * 16). The marking commits only once the bus has taken the rows. Always one row at least: `behind`
 * (a gap exists), with nulls when nothing was marked.
 */
const PUBLISH_BATCH = `
with batch as (
  select id from outbox_messages where published_at is null order by id limit ? for update skip locked
), gap as (
  select min(o.id) as id from outbox_messages o
  where o.published_at is null and o.id < (select max(id) from batch)
    and o.id not in (select id from batch)
), marked as (
  update outbox_messages o set published_at = now()
  from batch where o.id = batch.id and ((select id from gap) is null or batch.id < (select id from gap))
  returning o.id, o.topic, o.key, o.value, o.headers
)
select (select id from gap) is not null as behind, m.id, m.topic, m.key, m.value, m.headers
from (select 1) as one left join marked m on true
order by m.id`;

/** The oldest unpublished rows, read without locking them: the sole relay's batch. */
const READ_BATCH = `
select id, topic, key, value, headers from outbox_messages
where published_at is null order by id limit ?`;

/** Marks exactly the rows published (their ids, one array parameter). */
const MARK_PUBLISHED = `update outbox_messages set published_at = now() where id = any(?::bigint[])`;

/** The oldest unpublished event of each topic. */
const LAG = `select topic, min(created_at) as oldest from outbox_messages where published_at is null group by topic`;

export interface OutboxRelayLogger {
  warn(details: Record<string, unknown>, message: string): void;
}

/** The wait after n consecutive failed rounds: `initialMs` doubled n - 1 times, capped at `maxMs`. */
export interface OutboxRelayBackoff {
  initialMs: number;
  maxMs: number;
}

export interface OutboxRelayOptions {
  /** The ORM's root EntityManager; the relay works in forks of it. */
  em: EntityManager;
  bus: Pick<EventBus, 'publish'>;
  logger: OutboxRelayLogger;
  /** Rows published per transaction. */
  batchSize?: number;
  /**
   * Poll period when nobody nudges. Every writer nudges its relay after commit, so the poll only
   * picks up rows nobody told this relay about (another replica's, or a crash between commit and
   * nudge): seconds are fine, and each poll is a transaction on an otherwise idle database.
   */
  pollIntervalMs?: number;
  /** The wait before trying again when another relay holds older rows. */
  behindRetryMs?: number;
  /** Delay after consecutive publish failures. */
  backoff?: OutboxRelayBackoff;
  /** Published rows are kept this long (for inspection), then deleted. */
  retentionMs?: number;
  purgeIntervalMs?: number;
  /**
   * Told, at most every `lagIntervalMs`, the age in seconds of the oldest unpublished event of each
   * topic (0 once a topic's events are all out): the `tollgate_outbox_lag_seconds` gauge.
   */
  onLag?: (topic: string, ageSeconds: number) => void;
  lagIntervalMs?: number;
  /**
   * This is the only relay on its database (embedded mode: one process per data directory, one
   * relay per service). It then reads a batch, publishes it and marks it in a statement of its own,
   * with no transaction open while the bus takes the batch: embedded mode keeps every service's
   * schema in one PGlite, where an open transaction holds up every other service's statements, and
   * the bus's answer waits for the main thread's turn (up to hundreds of ms under load: bench/ANALYSIS.md,
   * H43). Delivery stays at least once: a crash between publishing and marking publishes again.
   * Never with replicas: two relays would publish the same rows.
   */
  soleRelay?: boolean;
}

/** `behind`: another relay holds a row older than some of this batch, which stayed unpublished. */
type BatchOutcome = { count: number; behind: boolean };

const DEFAULTS = {
  batchSize: 100,
  pollIntervalMs: 2_000,
  behindRetryMs: 200,
  backoff: { initialMs: 500, maxMs: 30_000 },
  retentionMs: 24 * 60 * 60 * 1000,
  purgeIntervalMs: 60_000,
  lagIntervalMs: 5_000,
} as const;

/**
 * Publishes the rows of `outbox_messages` through the event bus, in id order.
 *
 * Each batch is one transaction: lock the oldest unpublished rows (`FOR UPDATE SKIP LOCKED`),
 * publish them, mark them published, commit. If publishing fails, the transaction rolls back and
 * the rows stay for the next round (after a backoff). If the process dies after the bus accepted
 * a batch but before the commit, the rows are still unpublished and go out again after restart:
 * delivery is at least once, never lossy, and consumers deduplicate by event id.
 *
 * Several relays may run on one database (replicas): SKIP LOCKED keeps them off each other's rows,
 * and a relay publishes only the rows of its batch below the oldest pending row another relay
 * holds, then backs off, so rows are published in id order. Id order is commit order for events written after locking the
 * row they describe (the usual case); concurrent transactions on different entities may commit
 * out of id order, which is harmless since order matters per key.
 *
 * A row the bus refuses forever blocks the ones behind it, on purpose (order); it is logged on
 * every attempt.
 */
export class OutboxRelay {
  private readonly em: EntityManager;
  private readonly bus: Pick<EventBus, 'publish'>;
  private readonly logger: OutboxRelayLogger;
  private readonly batchSize: number;
  private readonly pollIntervalMs: number;
  private readonly behindRetryMs: number;
  private readonly backoff: OutboxRelayBackoff;
  private readonly retentionMs: number;
  private readonly purgeIntervalMs: number;

  private running = false;
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private roundInFlight = false;
  private nudgedDuringRound = false;
  private consecutiveFailures = 0;
  private lastPurgeAt = 0;
  private readonly onLag?: (topic: string, ageSeconds: number) => void;
  private readonly lagIntervalMs: number;
  private lastLagAt = 0;
  private readonly lagTopics = new Set<string>();
  private readonly soleRelay: boolean;
  /** Serialises rounds and `flushNow()` of this instance. */
  private exclusiveTail: Promise<unknown> = Promise.resolve();

  constructor(options: OutboxRelayOptions) {
    this.em = options.em;
    this.bus = options.bus;
    this.logger = options.logger;
    this.batchSize = options.batchSize ?? DEFAULTS.batchSize;
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULTS.pollIntervalMs;
    this.behindRetryMs = options.behindRetryMs ?? DEFAULTS.behindRetryMs;
    this.backoff = options.backoff ?? DEFAULTS.backoff;
    this.retentionMs = options.retentionMs ?? DEFAULTS.retentionMs;
    this.purgeIntervalMs = options.purgeIntervalMs ?? DEFAULTS.purgeIntervalMs;
    this.onLag = options.onLag;
    this.lagIntervalMs = options.lagIntervalMs ?? DEFAULTS.lagIntervalMs;
    this.soleRelay = options.soleRelay ?? false;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  /** Stops polling and waits for the batch in flight, if any. */
  async stop(): Promise<void> {
    this.running = false;
    this.cancelTimer();
    await this.exclusiveTail;
  }

  /** Call after committing a transaction that enqueued events: publishes without waiting for the poll. */
  nudge(): void {
    // While backing off, the bus is failing: nudges would only hammer it.
    if (!this.running || this.consecutiveFailures > 0) return;
    if (this.roundInFlight) {
      this.nudgedDuringRound = true;
      return;
    }
    this.schedule(0);
  }

  /** Publishes everything pending now; rejects if the bus fails. Returns the number of events published. */
  flushNow(): Promise<number> {
    return this.exclusive(async () => (await this.drainRows()).published);
  }

  /** Deletes rows published longer ago than the retention. Returns how many. */
  purgePublished(): Promise<number> {
    const cutoff = new Date(Date.now() - this.retentionMs);
    return this.em.fork().nativeDelete(OutboxMessage, { publishedAt: { $lt: cutoff } });
  }

  private schedule(delayMs: number): void {
    this.cancelTimer();
    const run = () => void this.round();
    // A round due now (a nudge after a commit) runs in this turn's check phase: a 0 ms timeout is a
    // 1 ms timer, the thread's sleep and one more wake-up per batch a consumer commits.
    // Either is never the reason a process stays alive.
    if (delayMs <= 0) this.immediate = setImmediate(run).unref();
    else this.timer = setTimeout(run, delayMs).unref();
  }

  private cancelTimer(): void {
    clearTimeout(this.timer);
    clearImmediate(this.immediate);
    this.timer = undefined;
    this.immediate = undefined;
  }

  private async round(): Promise<void> {
    this.timer = undefined;
    this.immediate = undefined;
    if (!this.running) return;
    this.roundInFlight = true;
    this.nudgedDuringRound = false;
    let nextDelayMs = this.pollIntervalMs;
    try {
      const behind = await this.exclusive(async () => {
        const drained = await this.drainRows();
        await this.purgeIfDue();
        await this.reportLagIfDue();
        return drained.behindAnotherRelay;
      });
      this.consecutiveFailures = 0;
      // The relay ahead may stop after its own batch, and nothing nudges this one to take the rest.
      if (behind) nextDelayMs = Math.min(nextDelayMs, this.behindRetryMs);
      if (this.nudgedDuringRound) nextDelayMs = 0;
    } catch (error) {
      this.consecutiveFailures += 1;
      nextDelayMs = backoffDelayMs(this.consecutiveFailures, {
        initialDelayMs: this.backoff.initialMs,
        maxDelayMs: this.backoff.maxMs,
      });
      this.logger.warn(
        { err: error, consecutiveFailures: this.consecutiveFailures, retryInMs: nextDelayMs },
        'Outbox relay could not publish; the events stay in the outbox for the next attempt',
      );
    } finally {
      this.roundInFlight = false;
    }
    if (this.running) this.schedule(nextDelayMs);
  }

  private async drainRows(): Promise<{ published: number; behindAnotherRelay: boolean }> {
    let published = 0;
    for (;;) {
      const outcome = await this.publishBatch();
      published += outcome.count;
      if (outcome.behind) return { published, behindAnotherRelay: true };
      if (outcome.count < this.batchSize) return { published, behindAnotherRelay: false };
    }
  }

  /**
   * The statements go through `queryRows`: parameters bound, one text each, so that an in-thread
   * PGlite parses each once per connection and keeps its plan; `EntityManager.execute` copied the
   * limit and the ids into the text, a new one every round (bench/ANALYSIS.md, H65). Plain rows
   * rather than entities: the relay only reads them, and making an entity of each
   * (EntityFactory.create, the json columns' conversion) showed in billing's profile.
   */
  private publishBatch(): Promise<BatchOutcome> {
    return this.soleRelay ? this.publishBatchAlone() : this.publishBatchLocked();
  }

  private async publishBatchAlone(): Promise<BatchOutcome> {
    const em = this.em.fork();
    const batch = await queryRows<PendingRow>(em, READ_BATCH, [this.batchSize]);
    if (batch.length === 0) return { count: 0, behind: false };
    await this.bus.publish(batch.map(toOutgoingEvent));
    await queryRows(em, MARK_PUBLISHED, [batch.map(({ id }) => id)]);
    return { count: batch.length, behind: false };
  }

  private publishBatchLocked(): Promise<BatchOutcome> {
    return this.em.fork().transactional(async (em): Promise<BatchOutcome> => {
      const rows = await queryRows<BatchRow>(em, PUBLISH_BATCH, [this.batchSize]);
      const behind = rows[0]?.behind === true;
      const batch = rows.filter((row): row is BatchRow & PendingRow => row.id !== null);
      if (batch.length === 0) return { count: 0, behind };
      // Marked in the statement above, inside this transaction: if publishing fails, the rollback
      // unmarks them, and if the process dies first, they were never marked.
      await this.bus.publish(batch.map(toOutgoingEvent));
      return { count: batch.length, behind };
    });
  }

  /** The oldest unpublished event's age per topic; a topic reported before and now empty reads 0. */
  async reportLag(now = Date.now()): Promise<void> {
    if (!this.onLag) return;
    const rows = await queryRows<{ topic: string; oldest: Date | string }>(this.em.fork(), LAG, []);
    const pending = new Set<string>();
    for (const row of rows) {
      pending.add(row.topic);
      this.lagTopics.add(row.topic);
      this.onLag(row.topic, Math.max(0, (now - new Date(row.oldest).getTime()) / 1000));
    }
    for (const topic of this.lagTopics) if (!pending.has(topic)) this.onLag(topic, 0);
  }

  private async reportLagIfDue(): Promise<void> {
    if (!this.onLag || Date.now() - this.lastLagAt < this.lagIntervalMs) return;
    this.lastLagAt = Date.now();
    await this.reportLag();
  }

  private async purgeIfDue(): Promise<void> {
    if (Date.now() - this.lastPurgeAt < this.purgeIntervalMs) return;
    this.lastPurgeAt = Date.now();
    await this.purgePublished();
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const result = this.exclusiveTail.then(work);
    this.exclusiveTail = result.catch(() => undefined);
    return result;
  }
}
