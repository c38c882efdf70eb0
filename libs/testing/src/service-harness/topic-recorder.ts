import type { EventBus, EventRecord, Subscription } from '@tollgate/events';

/** Every record published on a topic from the moment it starts, kept in arrival order. */
export class TopicRecorder {
  private constructor(
    readonly records: readonly EventRecord[],
    private readonly subscription: Subscription,
  ) {}

  /**
   * Joins a consumer group of its own that starts at the topic's end, so older records on a
   * shared broker are never seen.
   */
  static async start(bus: EventBus, topic: string, groupId: string): Promise<TopicRecorder> {
    const records: EventRecord[] = [];
    const subscription = await bus.subscribe({
      groupId,
      topics: [topic],
      fromBeginning: false,
      handler: async (batch) => {
        records.push(...batch);
      },
    });
    return new TopicRecorder(records, subscription);
  }

  /** The non-null values that pass `match`. */
  values<T>(match: (value: T) => boolean): T[] {
    return this.records
      .map((record) => record.value as T | null)
      .filter((value): value is T => value !== null && match(value));
  }

  stop(): Promise<void> {
    return this.subscription.stop();
  }
}
