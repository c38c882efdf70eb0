import type { EventRecord, OutgoingEvent } from '../port/event-bus.port';
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
  offsets: CommittedOffsets;
  publishDeadLetter: (event: OutgoingEvent) => Promise<void>;
  logger: EventBusLogger;
}

/**
 * Consumes one partition for one group member: reads from the group's committed offset, hands
 * batches to the handler in order and commits after each success. A worker starts only after
 * the partition's previous owner stopped, so handlers for one partition never overlap.
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
        const batch = this.log.read(position, MAX_BATCH_SIZE);
        if (batch.length === 0) {
          await this.log.waitForRecords(position, signal);
          continue;
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
