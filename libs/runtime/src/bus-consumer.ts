import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { BatchingOptions, EventBus, Subscription } from '@tollgate/events';
import { isInfrastructureUnavailable } from '@tollgate/persistence';
import type { ZodError, ZodType, ZodTypeDef } from 'zod';
import type { DecodedEvent } from './event-transport/bus-event.decorator';

export interface BusConsumerOptions<T> {
  groupId: string;
  topics: string[];
  /**
   * What every record's value must be, a tombstone's null included (`schema.nullable()` on a
   * compacted topic whose tombstones the consumer reads). A record that fails it is dead-lettered.
   */
  schema: ZodType<T, ZodTypeDef, unknown>;
  batching?: BatchingOptions;
  /**
   * More failures to retry for as long as the consumer runs instead of dead-lettering, besides the
   * infrastructure being away, which every consumer waits out (SubscribeOptions.isTransient).
   */
  isTransient?: (error: unknown) => boolean;
}

export type { DecodedEvent };

/**
 * A consumer group member for the service's lifetime: subscribes once the app is up (topics exist,
 * the database is migrated) and stops before the database closes. Subclasses say what a batch does.
 *
 * Every record is checked against the schema before `handle` sees it. One that fails can never
 * succeed: the bus sends it to `<topic>.dlq` at once with the validation error, logs its topic,
 * partition and offset, and handles the rest of the batch. So whatever `handle` throws is a real
 * failure. The infrastructure being away (`isInfrastructureUnavailable`: the database or a server
 * refusing or dropping connections) passes: retried for as long as the consumer runs, holding the
 * partition, never dead-lettered. Anything else (a bug) is retried, then dead-lettered, unless the
 * consumer's `isTransient` says it passes too.
 */
export abstract class BusConsumer<T> implements OnApplicationBootstrap, OnModuleDestroy {
  private subscription?: Subscription;

  protected constructor(
    private readonly bus: EventBus,
    private readonly options: BusConsumerOptions<T>,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { schema, isTransient, ...subscription } = this.options;
    this.subscription = await this.bus.subscribe<T>({
      ...subscription,
      isTransient: (error) => isInfrastructureUnavailable(error) || (isTransient?.(error) ?? false),
      decode: (value) => {
        const parsed = schema.safeParse(value);
        if (!parsed.success) throw new MalformedEventError(parsed.error);
        return parsed.data;
      },
      // decode ran on every value, null included, so each value is a T.
      handler: (batch) => this.handle(batch as DecodedEvent<T>[]),
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscription?.stop();
  }

  abstract handle(events: DecodedEvent<T>[]): Promise<void>;
}

/**
 * Names each failing field and what was wrong with it, never what it held: the message is logged
 * and a record may carry user data (zod's own messages quote values for enums and literals).
 */
class MalformedEventError extends Error {
  constructor(error: ZodError) {
    const issues = error.issues.map((issue) => {
      const at = issue.path.length > 0 ? issue.path.join('.') : '(value)';
      const types =
        issue.code === 'invalid_type' ? ` (expected ${issue.expected}, got ${issue.received})` : '';
      return `${at}: ${issue.code}${types}`;
    });
    super(`does not match its schema: ${issues.join('; ')}`);
    this.name = 'MalformedEventError';
  }
}
