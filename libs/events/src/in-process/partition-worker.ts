import type { BatchingOptions, EventRecord, OutgoingEvent } from '../port/event-bus.port';
import { backoffDelayMs, sleep } from '../shared/backoff';
import { deadLetterEvent } from '../shared/dead-letter';
import { decodeRecord, deliverRecords, type DeliveryPolicy } from '../shared/deliver-batch';
import { errorMessage, type EventBusLogger } from '../shared/logger';
import type { CommittedOffsets } from './committed-offsets';
import type { LogRecord } from './log-record';
import type { PartitionLog } from './partition-log';

const MAX_BATCH_SIZE = 500;

export interface WorkerSettings {
  groupId: string;
  handler: (batch: EventRecord[]) => Promise<void>;
  decode?: ((value: unknown) => unknown) | undefined;
  policy: DeliveryPolicy;
  /** Gather records as a Kafka fetch with minBytes and maxWaitTimeInMs would; without it, deliver at once. */
  batching?: BatchingOptions | undefined;
  /** Hand each value over as the log's JSON text (null for a tombstone), unparsed, its headers uncopied. */
  encoded?: boolean;
  offsets: CommittedOffsets;
  publishDeadLetter: (event: OutgoingEvent) => Promise<void>;
  logger: EventBusLogger;
}

/**
 * Consumes one partition for one group member: reads from the group's committed offset, hands
 * batches to the handler in order and commits after each success. A worker starts only after
 * the partition's previous owner stopped, so handlers for one partition never overlap.
 *
 * With `batching`, records wait (as in a Kafka fetch) until `minBytes` of values or MAX_BATCH_SIZE
 * records are there, or `maxWaitMs` has passed since the first of them was published, and then go
 * to the handler as one batch: one transaction for many events at low rates too.
 */
export class PartitionWorker {
  readonly done: Promise<void>;
  private readonly abort = new AbortController();

  constructor(
    readonly memberId: number,
    private readonly log: PartitionLog,
    private readonly settings: WorkerSettings,
    previousOwnerDone: Promise<void>,
  ) {
    this.done = this.run(previousOwnerDone);
  }

  stop(): Promise<void> {
    this.abort.abort();
    return this.done;
  }

  private async run(previousOwnerDone: Promise<void>): Promise<void> {
    await previousOwnerDone;
    const { signal } = this.abort;
    let failures = 0;
    while (!signal.aborted) {
      try {
        const position = this.committedOffset();
        let batch = this.log.read(position, MAX_BATCH_SIZE);
        if (batch.length === 0) {
          await this.log.waitForRecords(position, signal);
          continue;
        }
        if (this.settings.batching) {
          if (!(await this.gather(batch, this.settings.batching, signal))) break;
          batch = this.log.read(position, MAX_BATCH_SIZE);
        }
        await deliverRecords(
          batch.map((record) => decodeRecord(this.toEventRecord(record), this.settings.decode)),
          this.settings.policy,
          {
            handler: this.settings.handler,
            commit: (record) => this.commit(Number(record.offset) + 1),
            deadLetter: (record, error, attempts) => this.deadLetter(record, error, attempts),
            wait: (ms) => sleep(ms, signal),
            isActive: () => !signal.aborted,
            onRetry: (error, attempt, delayMs) => this.logRetry(error, attempt, delayMs),
          },
        );
        failures = 0;
      } catch (error) {
        // Committing or dead-lettering failed (disk trouble): try again from the committed offset.
        failures++;
        this.settings.logger.error('in-process consumer failed; retrying from the committed offset', {
          groupId: this.settings.groupId,
          topic: this.log.topic,
          partition: this.log.partition,
          error: errorMessage(error),
        });
        await sleep(backoffDelayMs(failures, this.settings.policy.backoff), signal);
      }
    }
  }

  /**
   * Waits until the records from `waiting[0]` on make a batch worth delivering: enough bytes or
   * records, or the first one has waited `maxWaitMs`. Resolves false when the worker is stopped
   * meanwhile; nothing is delivered or committed then, so the records go to the partition's next owner.
   */
  private gather(
    waiting: readonly LogRecord[],
    { minBytes, maxWaitMs }: BatchingOptions,
    signal: AbortSignal,
  ): Promise<boolean> {
    let count = 0;
    let bytes = 0;
    const enough = (records: readonly LogRecord[]): boolean => {
      for (const record of records) {
        count++;
        bytes += record.key.length + (record.value?.length ?? 0);
      }
      return count >= MAX_BATCH_SIZE || bytes >= minBytes;
    };
    if (enough(waiting)) return Promise.resolve(true);
    // From when the first record was published (wall clock): a record that waited out a restart or
    // the previous batch's handler is not held again. Never longer than maxWaitMs from now.
    const waitMs = Math.min(waiting[0].timestamp, Date.now()) + maxWaitMs - Date.now();
    if (waitMs <= 0) return Promise.resolve(true);
    if (signal.aborted) return Promise.resolve(false);
    // One timer and one append listener per batch, not a wake-up per record. Nothing can be
    // appended between the read that gave `waiting` and this listener: both happen in one tick.
    return new Promise((resolve) => {
      const finish = (deliver: boolean) => {
        clearTimeout(timer);
        stopListening();
        signal.removeEventListener('abort', stop);
        resolve(deliver);
      };
      const stop = () => finish(false);
      const timer = setTimeout(() => finish(true), waitMs);
      const stopListening = this.log.onAppend((records) => {
        if (enough(records)) finish(true);
      });
      signal.addEventListener('abort', stop, { once: true });
    });
  }

  private committedOffset(): number {
    return (
      this.settings.offsets.get(this.settings.groupId, this.log.topic, this.log.partition) ??
      this.log.startOffset
    );
  }

  private commit(offset: number): Promise<void> {
    return this.settings.offsets.commit({
      groupId: this.settings.groupId,
      topic: this.log.topic,
      partition: this.log.partition,
      offset,
    });
  }

  private toEventRecord(record: LogRecord): EventRecord {
    if (this.settings.encoded) {
      return {
        topic: this.log.topic,
        partition: this.log.partition,
        offset: String(record.offset),
        key: record.key,
        value: record.value,
        headers: record.headers,
        timestamp: record.timestamp,
      };
    }
    return {
      topic: this.log.topic,
      partition: this.log.partition,
      offset: String(record.offset),
      key: record.key,
      // Each delivery gets its own copy, as it would from a broker.
      value: record.value === null ? null : JSON.parse(record.value),
      headers: { ...record.headers },
      timestamp: record.timestamp,
    };
  }

  private async deadLetter(record: EventRecord, error: unknown, attempts: number): Promise<void> {
    await this.settings.publishDeadLetter(deadLetterEvent(record, this.settings.groupId, error, attempts));
    this.settings.logger.warn('event dead-lettered', {
      groupId: this.settings.groupId,
      topic: record.topic,
      partition: record.partition,
      offset: record.offset,
      error: errorMessage(error),
    });
  }

  private logRetry(error: unknown, attempt: number, delayMs: number): void {
    this.settings.logger.warn('event handler failed; retrying', {
      groupId: this.settings.groupId,
      topic: this.log.topic,
      partition: this.log.partition,
      attempt,
      delayMs,
      error: errorMessage(error),
    });
  }
}
