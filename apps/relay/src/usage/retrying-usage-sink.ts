import type { UsageRecorded } from '@tollgate/contracts';
import type { Logger } from '@tollgate/platform';
import type { UsageSink } from '../pipeline/metering';

export interface RetryingUsageSinkOptions {
  /** One attempt to put events on usage.recorded (the bus's publish). */
  publish(events: UsageRecorded[]): Promise<void>;
  logger: Logger;
  /** First pause after a failed attempt; doubled up to `maxDelayMs`. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** How long `close()` keeps trying to publish what is still held. */
  closeTimeoutMs?: number;
}

/**
 * usage.recorded that outlives a broker outage: an event whose publish fails is held in memory and
 * published again, with backoff, until the broker takes it, so a call served while Kafka is away is
 * still charged once it is back. Billing settles by event id, so an event that did get through before
 * its attempt reported a failure is charged once all the same. Held events are lost only if this
 * process dies before the broker returns (the `usage_pending` count in the log says how many).
 */
export class RetryingUsageSink implements UsageSink {
  private readonly held: UsageRecorded[] = [];
  private retrying: Promise<void> | undefined;
  private closing = false;
  private timer: NodeJS.Timeout | undefined;
  private wake: (() => void) | undefined;

  constructor(private readonly options: RetryingUsageSinkOptions) {}

  /** Events waiting for the broker. */
  get pending(): number {
    return this.held.length;
  }

  async record(event: UsageRecorded): Promise<void> {
    // Behind events already held, so that the queue drains in order.
    if (this.held.length === 0) {
      try {
        await this.options.publish([event]);
        return;
      } catch (error) {
        this.options.logger.warn(
          { eventId: event.event_id, err: (error as Error).name, usage_pending: this.held.length + 1 },
          'usage.recorded could not be published: held and retried until the broker takes it',
        );
      }
    }
    this.held.push(event);
    this.retrying ??= this.retry().finally(() => (this.retrying = undefined));
  }

  private async retry(): Promise<void> {
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
        if (this.held.length === 0)
          this.options.logger.info({ usage_pending: 0 }, 'held usage.recorded published');
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

  /** Tries for a while to publish what is held; what is still held then is logged as lost. */
  async close(): Promise<void> {
    const deadline = Date.now() + (this.options.closeTimeoutMs ?? 10_000);
    while (this.held.length > 0 && Date.now() < deadline) {
      clearTimeout(this.timer);
      this.wake?.();
      await Promise.race([this.retrying, new Promise((r) => setTimeout(r, 200))]);
    }
    this.closing = true;
    clearTimeout(this.timer);
    this.wake?.();
    if (this.held.length > 0) {
      this.options.logger.error(
        { usage_pending: this.held.length },
        'usage.recorded events lost at shutdown: the broker did not take them',
      );
    }
  }
}
