import type { EventBus, OutgoingEvent } from '@tollgate/events';

/**
 * The one EventBus operation the outbox relay needs, recording what it was given. Several buses
 * may share one `published` log to show the order in which different relays published.
 */
export class RecordingEventBus implements Pick<EventBus, 'publish'> {
  private failuresBeforeRecording = 0;
  private failuresAfterRecording = 0;
  /** Runs while the bus holds a batch, before it takes it (what else can happen meanwhile). */
  whilePublishing: ((events: OutgoingEvent[]) => Promise<void>) | undefined;

  constructor(
    private readonly delayMs = 0,
    readonly published: OutgoingEvent[] = [],
  ) {}

  /** The broker is down: the next publishes fail and nothing goes out. */
  failNextBeforeRecording(times: number): void {
    this.failuresBeforeRecording = times;
  }

  /** The broker accepts the events, then the relay "dies" before it can mark them published. */
  failNextAfterRecording(times: number): void {
    this.failuresAfterRecording = times;
  }

  async publish(events: OutgoingEvent[]): Promise<void> {
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    await this.whilePublishing?.(events);
    if (this.failuresBeforeRecording > 0) {
      this.failuresBeforeRecording -= 1;
      throw new Error('broker unavailable');
    }
    this.published.push(...events);
    if (this.failuresAfterRecording > 0) {
      this.failuresAfterRecording -= 1;
      throw new Error('relay killed after publishing');
    }
  }
}
