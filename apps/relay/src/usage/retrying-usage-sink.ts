import type { UsageRecorded } from '@tollgate/contracts';
import type { CorrelationHeaders, Logger } from '@tollgate/platform';
import type { UsageSink } from '../pipeline/metering';
import type { UsageSpool } from './usage-spool';

export interface RetryingUsageSinkOptions {
  /** One attempt to put events on usage.recorded (the bus's publish), each with its call's headers. */
  publish(events: CorrelatedUsage[]): Promise<void>;
  logger: Logger;
  /** Where held events are written so that they outlive this process; without it they live in memory only. */
  spool?: Pick<UsageSpool, 'adopt' | 'append' | 'clear' | 'close'>;
  /** First pause after a failed attempt; doubled up to `maxDelayMs`. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** How long `close()` keeps trying to publish what is still held. */
  closeTimeoutMs?: number;
}

/**
 * An event and the correlation headers of the call it records. Events read back from the spool have
 * none: the spool keeps the event alone (it names its request in `request_id`).
 */
export interface CorrelatedUsage {
  event: UsageRecorded;
  headers?: CorrelationHeaders;
}

/**
 * usage.recorded that outlives a broker outage: an event whose publish fails is held and published
 * again, with backoff, until the broker takes it, so a call served while Kafka is away is still
 * charged once it is back. Held events are also written to the spool (see UsageSpool) before
 * `record` returns, so a relay that dies before the broker is back loses none: the next relay to
 * start with the same spool directory publishes them (`start`). While the broker takes every event,
 * the spool is never touched.
 *
 * `record` resolves once its event is acknowledged by the broker or on disk in the spool. Each event
 * goes to the bus at once, with its own call's correlation headers (relay carries no async-local
 * context), and the bus batches: the Kafka publisher sends a lone event at once and gathers the events
 * of calls that end together into one produce request (KafkaPublisher), so a lone call costs no timer
 * here. A relay killed outright loses the events whose publish is in flight (their reservations
 * expire: those calls go free); a relay stopped cleanly waits for them (`close`).
 *
 * Billing settles by event id, so an event published twice (one that got through before its attempt
 * reported a failure, or one still spooled when its relay died after publishing it) is charged once.
 */
export class RetryingUsageSink implements UsageSink {
  private held: CorrelatedUsage[] = [];
  /** Some held event could not be written to the spool: it lives only in memory. */
  private unspooled = false;
  private retrying: Promise<void> | undefined;
  private closing = false;
  private timer: NodeJS.Timeout | undefined;
  private wake: (() => void) | undefined;
  /** Publishes not settled yet, and what `close` waits on while there are some. */
  private sending = 0;
  private allSent: (() => void) | undefined;

  constructor(private readonly options: RetryingUsageSinkOptions) {}

  /** Events held for a broker that refused them. */
  get pending(): number {
    return this.held.length;
  }

  /**
   * Takes over what relays that are gone left in the spool and publishes it through the retry loop;
   * returns without waiting for the broker, which may be away.
   */
  async start(): Promise<void> {
    const { spool, logger } = this.options;
    if (!spool) return;
    try {
      const adopted = await spool.adopt();
      if (adopted.length === 0) return;
      this.held = [...adopted.map((event) => ({ event })), ...this.held];
      this.retry();
    } catch (error) {
      logger.error(
        { err: (error as Error).name, code: (error as NodeJS.ErrnoException).code },
        'the usage spool could not be read: events other relays left in it wait for the next start',
      );
    }
  }

  /** Resolves once the event is published, or held and spooled. */
  async record(event: UsageRecorded, headers?: CorrelationHeaders): Promise<void> {
    // Behind events already held, so that the queue drains in order.
    if (this.held.length > 0) return this.hold([{ event, headers }]);
    // A counter, not a set of the publishes' promises with a catch and a finally each: this runs per call.
    this.sending++;
    try {
      await this.options.publish([{ event, headers }]);
    } catch (error) {
      this.options.logger.warn(
        { eventId: event.event_id, err: (error as Error).name, usage_pending: this.held.length + 1 },
        'usage.recorded could not be published: held and retried until the broker takes it',
      );
      await this.hold([{ event, headers }]);
    } finally {
      if (--this.sending === 0) {
        const allSent = this.allSent;
        this.allSent = undefined;
        allSent?.();
      }
    }
  }

  private async hold(events: CorrelatedUsage[]): Promise<void> {
    this.held.push(...events);
    // Enqueued before the retry loop can publish and clear the spool, so a clear never overtakes it.
    const spooled = this.spool(events);
    this.retry();
    await spooled;
  }

  private retry(): void {
    if (this.retrying) return;
    this.retrying = this.retryUntilEmpty().finally(() => {
      this.retrying = undefined;
      // An event held while the loop was ending would otherwise wait for the next one.
      if (this.held.length > 0 && !this.closing) this.retry();
    });
  }

  private async retryUntilEmpty(): Promise<void> {
    let delay = this.options.initialDelayMs ?? 500;
    const maxDelay = this.options.maxDelayMs ?? 10_000;
    while (this.held.length > 0) {
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        this.timer = setTimeout(resolve, delay);
      });
      const batch = this.held.slice(0, 500);
      try {
        await this.options.publish(batch);
        this.held.splice(0, batch.length);
        delay = this.options.initialDelayMs ?? 500;
        if (this.held.length === 0) {
          this.unspooled = false;
          await this.clearSpool();
          this.options.logger.info({ usage_pending: 0 }, 'held usage.recorded published');
        }
      } catch (error) {
        if (this.closing) return;
        delay = Math.min(delay * 2, maxDelay);
        this.options.logger.warn(
          { err: (error as Error).name, usage_pending: this.held.length },
          'usage.recorded still cannot be published; retrying',
        );
      }
    }
  }

  /** Resolves once the events are on disk, or logs that they are in memory only. */
  private async spool(events: CorrelatedUsage[]): Promise<boolean> {
    const { spool, logger } = this.options;
    if (!spool) return false;
    try {
      await spool.append(events.map(({ event }) => event));
      return true;
    } catch (error) {
      this.unspooled = true;
      logger.error(
        {
          err: (error as Error).name,
          code: (error as NodeJS.ErrnoException).code,
          usage_pending: this.held.length,
        },
        'usage.recorded could not be written to the spool: held in memory only',
      );
      return false;
    }
  }

  private async clearSpool(): Promise<void> {
    try {
      await this.options.spool?.clear();
    } catch (error) {
      // What stays in the spool is published again by the next relay: harmless, billing settles by event id.
      this.options.logger.warn(
        { err: (error as Error).name, code: (error as NodeJS.ErrnoException).code },
        'published usage.recorded could not be removed from the spool',
      );
    }
  }

  /**
   * Tries for a while to publish what is held; what is still held then stays in the spool for the
   * next relay to start with it (or, without a spool, is logged as lost).
   */
  async close(): Promise<void> {
    while (this.sending > 0) await new Promise<void>((resolve) => (this.allSent = resolve));
    const deadline = Date.now() + (this.options.closeTimeoutMs ?? 10_000);
    while (this.held.length > 0 && Date.now() < deadline) {
      clearTimeout(this.timer);
      this.wake?.();
      await Promise.race([this.retrying, new Promise((r) => setTimeout(r, 200))]);
    }
    this.closing = true;
    clearTimeout(this.timer);
    this.wake?.();
    const pending = this.held.length;
    // Events the spool refused before get one more try, all of them (duplicates are harmless).
    if (pending > 0 && this.unspooled && (await this.spool(this.held))) this.unspooled = false;
    if (pending > 0 && this.options.spool && !this.unspooled) {
      this.options.logger.warn(
        { usage_pending: pending },
        'usage.recorded the broker did not take before shutdown stays in the spool for the next relay',
      );
    } else if (pending > 0) {
      this.options.logger.error(
        { usage_pending: pending },
        'usage.recorded events lost at shutdown: the broker did not take them',
      );
    }
    try {
      await this.options.spool?.close();
    } catch (error) {
      this.options.logger.warn(
        { err: (error as Error).name, code: (error as NodeJS.ErrnoException).code },
        'the usage spool could not be closed cleanly',
      );
    }
  }
}
