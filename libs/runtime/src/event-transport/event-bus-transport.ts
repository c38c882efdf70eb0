import { Server, type CustomTransportStrategy, type MessageHandler } from '@nestjs/microservices';
import type { EventBus, Subscription } from '@tollgate/events';
import { isObservable, lastValueFrom } from 'rxjs';
import {
  BUS_EVENT_OPTIONS,
  BusEventContext,
  EVENT_BUS_TRANSPORT,
  type BusEventOptions,
  type DecodedEvent,
} from './bus-event.decorator';
import { decodeWithSchema, failureRule } from './consumer-rules';

export interface EventBusTransportOptions {
  /**
   * Group ids to use instead of the ones the handlers declare, by declared id: for a group id that
   * comes from configuration (integration tests give each run its own). Every key must be declared.
   */
  groupIds?: Readonly<Record<string, string>>;
}

interface BusHandler {
  topic: string;
  options: BusEventOptions<unknown>;
  handler: MessageHandler<DecodedEvent<unknown>[], BusEventContext>;
}

/**
 * The event bus as a Nest transport: each @BusEvent handler of the app is one consumer group member
 * of its topic while the transport listens. The bus keeps everything it owns: decoding against the
 * schema (a malformed record is dead-lettered and never reaches the handler), batching, commits
 * after the handler's call resolves, retries and dead letters; the infrastructure being away is
 * waited out (`isInfrastructureUnavailable`), and the handler's own `isTransient` only widens that.
 *
 * Unlike Nest's own transports, handlers of one topic are not chained into one call: billing has
 * three groups on identity.user, each with its own offsets, retries and dead letters.
 */
export class EventBusTransport extends Server implements CustomTransportStrategy {
  override readonly transportId = EVENT_BUS_TRANSPORT;
  private readonly handlers: BusHandler[] = [];
  private subscriptions: Subscription[] = [];

  constructor(
    private readonly bus: EventBus,
    private readonly options: EventBusTransportOptions = {},
  ) {
    super();
  }

  /** Called by Nest for each handler it finds; only @BusEvent handlers are served. */
  override addHandler(
    pattern: unknown,
    callback: MessageHandler,
    isEventHandler = false,
    extras: Record<string | symbol, unknown> = {},
  ): void {
    const options = extras[BUS_EVENT_OPTIONS] as BusEventOptions<unknown> | undefined;
    if (!isEventHandler || typeof pattern !== 'string' || options === undefined) {
      const decorator = isEventHandler ? '@EventPattern' : '@MessagePattern';
      throw new Error(
        `EventBusTransport serves @BusEvent(topic, options) handlers only, not ${decorator}(${this.getPatternAsString(pattern)})`,
      );
    }
    const group = this.groupOf({ options });
    const twin = this.handlers.find((other) => this.groupOf(other) === group);
    if (twin) {
      throw new Error(
        `consumer group ${group} is declared by two @BusEvent handlers (${twin.topic}, ${pattern})`,
      );
    }
    this.handlers.push({ topic: pattern, options, handler: callback });
  }

  /** Subscribes every handler's group; reports the first failure after leaving the groups it joined. */
  async listen(callback: (error?: unknown) => void): Promise<void> {
    const unknownGroups = Object.keys(this.options.groupIds ?? {}).filter(
      (declared) => !this.handlers.some((h) => h.options.group === declared),
    );
    if (unknownGroups.length > 0) {
      callback(
        new Error(`groupIds renames groups no @BusEvent handler declares: ${unknownGroups.join(', ')}`),
      );
      return;
    }
    const joined = await Promise.allSettled(this.handlers.map((handler) => this.subscribe(handler)));
    this.subscriptions = joined.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    const failed = joined.find((result) => result.status === 'rejected');
    if (failed) {
      await this.close();
      callback(failed.reason);
      return;
    }
    callback();
  }

  /** Leaves every group: a running batch finishes (and is committed), no new one starts. */
  async close(): Promise<void> {
    const subscriptions = this.subscriptions;
    this.subscriptions = [];
    await Promise.all(subscriptions.map((subscription) => subscription.stop()));
  }

  on(): never {
    throw new Error('EventBusTransport has no events to listen to');
  }

  unwrap<T>(): T {
    return this.bus as T;
  }

  private subscribe({ topic, options, handler }: BusHandler): Promise<Subscription> {
    const group = this.groupOf({ options });
    const context = new BusEventContext([topic, group]);
    return this.bus.subscribe({
      groupId: group,
      topics: [topic],
      decode: decodeWithSchema(options.schema),
      ...(options.batching ? { batching: options.batching } : {}),
      ...(options.commitIntervalMs !== undefined ? { commitIntervalMs: options.commitIntervalMs } : {}),
      isTransient: failureRule(options.isTransient),
      handler: async (batch) => {
        // decode ran on every value, null included, so each value is what the schema says.
        const result = await handler(batch as DecodedEvent<unknown>[], context);
        // A handler (or an interceptor) may answer an Observable, and an error as one: wait it out.
        if (isObservable(result)) await lastValueFrom(result, { defaultValue: undefined });
      },
    });
  }

  private groupOf({ options }: Pick<BusHandler, 'options'>): string {
    return this.options.groupIds?.[options.group] ?? options.group;
  }
}
