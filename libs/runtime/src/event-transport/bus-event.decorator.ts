import { Catch, UseFilters, applyDecorators, type RpcExceptionFilter } from '@nestjs/common';
import { BaseRpcContext, EventPattern } from '@nestjs/microservices';
import type { BatchingOptions, EventRecord } from '@tollgate/events';
import { throwError, type Observable } from 'rxjs';
import type { EventSchema } from './consumer-rules';

/** A record whose value matched the handler's schema. */
export interface DecodedEvent<T> extends Omit<EventRecord, 'value'> {
  value: T;
}

/** EventBusTransport's transport id: @BusEvent handlers go to it and to no other transport. */
export const EVENT_BUS_TRANSPORT = Symbol('EventBusTransport');

/** The key of a @BusEvent handler's options in its EventPattern extras. */
export const BUS_EVENT_OPTIONS = Symbol('BusEventOptions');

/** A handler's consumer group and how it consumes; the topic is the pattern. */
export interface BusEventOptions<T> {
  /** The consumer group; EventBusTransport's `groupIds` can replace it at start-up. */
  group: string;
  /**
   * What every record's value must be, a tombstone's null included (`schema.nullable()` on a
   * compacted topic whose tombstones the handler reads). A record that fails it is dead-lettered.
   */
  schema: EventSchema<T>;
  batching?: BatchingOptions;
  /** Least time between offset commits under load (SubscribeOptions.commitIntervalMs). */
  commitIntervalMs?: number;
  /**
   * More failures to retry for as long as the consumer runs instead of dead-lettering, besides the
   * infrastructure being away, which every consumer waits out (SubscribeOptions.isTransient).
   */
  isTransient?: (error: unknown) => boolean;
}

/** The handler's second argument (`@Ctx()`): where its batch came from. */
export class BusEventContext extends BaseRpcContext<[topic: string, group: string]> {
  getTopic(): string {
    return this.args[0];
  }

  getGroup(): string {
    return this.args[1];
  }
}

type BatchHandler<T> = (events: DecodedEvent<T>[], context: BusEventContext) => Promise<unknown>;

/**
 * Makes a controller method a consumer group member of `topic` while EventBusTransport listens:
 * it gets each batch of records that match `options.schema` in one call, and the bus commits the
 * batch once the call resolves. Whatever the call throws reaches the bus as thrown, so the bus's
 * retries, dead letters and `isTransient` see the handler's own error (Nest's default RPC filter
 * would log it and replace it with `{ status: 'error', message: 'Internal server error' }`).
 *
 * The method's first parameter must accept `DecodedEvent<T>[]` for the schema's T.
 */
export function BusEvent<T>(topic: string, options: BusEventOptions<T>) {
  const decorate = applyDecorators(
    EventPattern(topic, EVENT_BUS_TRANSPORT, { [BUS_EVENT_OPTIONS]: options }),
    UseFilters(new RethrowToBus()),
  );
  return <H extends BatchHandler<T>>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<H>,
  ): void => {
    decorate(target, key, descriptor);
  };
}

/** Hands a handler's error to the bus unchanged and leaves the logging to the bus. */
@Catch()
class RethrowToBus implements RpcExceptionFilter<unknown> {
  catch(exception: unknown): Observable<never> {
    return throwError(() => exception);
  }
}
