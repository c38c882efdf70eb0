import type { EventRecord } from '../port/event-bus.port';
import { backoffDelayMs, type BackoffPolicy } from './backoff';

export interface DeliveryPolicy {
  maxAttempts: number;
  backoff: BackoffPolicy;
  /** A failure this says is transient is retried for as long as the consumer runs, never dead-lettered. */
  isTransient?: (error: unknown) => boolean;
}

export const DEFAULT_MAX_ATTEMPTS = 5;

/** What the consumer loop of an adapter plugs into the shared retry/dead-letter logic. */
export interface DeliveryContext<T> {
  handler(batch: EventRecord<T>[]): Promise<void>;
  /** Marks `record` and everything before it in its partition as done. */
  commit(record: EventRecord<T>): Promise<void>;
  deadLetter(record: EventRecord<T>, error: unknown, attempts: number): Promise<void>;
  /** Waits before a retry; resolves false when the consumer is stopping. */
  wait(ms: number): Promise<boolean>;
  /** False once the consumer stops or loses the partition: no new handler call starts then. */
  isActive(): boolean;
  onRetry?(error: unknown, failedAttempt: number, delayMs: number): void;
}

/** `done`: every record was handled or dead-lettered and committed; `stopped`: gave up early. */
export type DeliveryOutcome = 'done' | 'stopped';

/**
 * Hands one partition's batch to the handler, retrying the whole batch with backoff. When the
 * batch still fails after `maxAttempts`, its records are tried one by one (once each, since
 * each has already failed `maxAttempts` times inside the batch) so that only the records that
 * fail on their own go to the dead-letter topic. A failure `policy.isTransient` recognises is
 * retried until it passes or the consumer stops: it never sends a record to the dead-letter topic.
 */
export async function deliverBatch<T>(
  records: EventRecord<T>[],
  policy: DeliveryPolicy,
  context: DeliveryContext<T>,
): Promise<DeliveryOutcome> {
  if (records.length === 0) return 'done';
  let lastError: unknown;
  for (let attempt = 1; ; attempt++) {
    if (!context.isActive()) return 'stopped';
    try {
      await context.handler(records);
      await context.commit(records[records.length - 1]);
      return 'done';
    } catch (error) {
      lastError = error;
    }
    if (attempt < policy.maxAttempts || policy.isTransient?.(lastError)) {
      const delayMs = backoffDelayMs(attempt, policy.backoff);
      context.onRetry?.(lastError, attempt, delayMs);
      if (!(await context.wait(delayMs))) return 'stopped';
    } else {
      break;
    }
  }
  if (records.length === 1) {
    await context.deadLetter(records[0], lastError, policy.maxAttempts);
    await context.commit(records[0]);
    return 'done';
  }
  for (const record of records) {
    if (!context.isActive()) return 'stopped';
    try {
      await context.handler([record]);
    } catch (error) {
      if (policy.isTransient?.(error)) {
        // Alone it failed for a passing reason: retried like a batch of one, never dead-lettered.
        if ((await deliverBatch([record], policy, context)) === 'stopped') return 'stopped';
        continue;
      }
      await context.deadLetter(record, error, policy.maxAttempts + 1);
    }
    await context.commit(record);
  }
  return 'done';
}

/** A record as read: ready for the handler, or one that can never be handled, with the reason. */
export type ReadRecord<T> =
  { ok: true; record: EventRecord<T> } | { ok: false; record: EventRecord<T>; error: unknown };

/** Applies a subscription's `decode` to a record's value; a record it throws for cannot be handled. */
export function decodeRecord(
  record: EventRecord,
  decode: ((value: unknown) => unknown) | undefined,
): ReadRecord<unknown> {
  if (!decode) return { ok: true, record };
  try {
    return { ok: true, record: { ...record, value: decode(record.value) } };
  } catch (error) {
    return { ok: false, record, error };
  }
}

/**
 * Delivers a partition's records in order: each run of records that can be handled goes through
 * `deliverBatch`, and each record that cannot goes straight to the dead-letter topic (0 attempts)
 * between them, so offsets are still committed in order.
 */
export async function deliverRecords<T>(
  records: ReadRecord<T>[],
  policy: DeliveryPolicy,
  context: DeliveryContext<T>,
): Promise<DeliveryOutcome> {
  let run: EventRecord<T>[] = [];
  for (const read of records) {
    if (read.ok) {
      run.push(read.record);
      continue;
    }
    if ((await deliverBatch(run, policy, context)) === 'stopped' || !context.isActive()) return 'stopped';
    run = [];
    await context.deadLetter(read.record, read.error, 0);
    await context.commit(read.record);
  }
  return deliverBatch(run, policy, context);
}
