import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { BatchingOptions, EventBus, EventRecord, Subscription } from '@tollgate/events';

export interface BusConsumerOptions {
  groupId: string;
  topics: string[];
  batching?: BatchingOptions;
  /** Failures retried for as long as the consumer runs instead of dead-lettered (SubscribeOptions.isTransient). */
  isTransient?: (error: unknown) => boolean;
}

/**
 * A consumer group member for the service's lifetime: subscribes once the app is up (topics exist,
 * the database is migrated) and stops before the database closes. Subclasses say what a batch does.
 */
export abstract class BusConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private subscription?: Subscription;

  protected constructor(
    private readonly bus: EventBus,
    private readonly options: BusConsumerOptions,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.subscription = await this.bus.subscribe({ ...this.options, handler: (batch) => this.handle(batch) });
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscription?.stop();
  }

  abstract handle(batch: EventRecord[]): Promise<void>;
}
