import type { OutgoingEvent, SubscribeOptions } from '../port/event-bus.port';
import { backoffDelayMs, backoffPolicy } from './backoff';
import { DEFAULT_MAX_ATTEMPTS, type DeliveryPolicy } from './deliver-batch';
import { assertValidTopicName } from './topic-name';

/** Serialises an event's value as it travels: JSON text, or null for a tombstone. */
export function encodeValue(event: OutgoingEvent): string | null {
  if (event.value === null) return null;
  const json = JSON.stringify(event.value) as string | undefined;
  if (json === undefined) {
    throw new TypeError(
      `Event for ${event.topic}/${event.key} has a value that is not JSON (use null for a tombstone)`,
    );
  }
  return json;
}

export function assertValidEvent(event: OutgoingEvent): void {
  assertValidTopicName(event.topic);
  if (typeof event.key !== 'string') throw new TypeError(`Event for ${event.topic} needs a string key`);
  const headers = event.headers;
  if (!headers) return;
  // Object.keys, not entries: no [name, value] array a header on every publish.
  for (const name of Object.keys(headers)) {
    if (typeof headers[name] !== 'string')
      throw new TypeError(`Header ${name} of an event for ${event.topic} is not a string`);
  }
}

export function deliveryPolicy(
  options: Pick<SubscribeOptions<unknown>, 'maxAttempts' | 'backoff' | 'isTransient'>,
): DeliveryPolicy {
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) {
    throw new RangeError(`maxAttempts must be a positive integer, got ${maxAttempts}`);
  }
  return {
    maxAttempts,
    backoff: backoffPolicy(options.backoff),
    ...(options.isTransient ? { isTransient: options.isTransient } : {}),
  };
}

/**
 * How long the bus retries a failing batch before it dead-letters its records: the waits between
 * its `maxAttempts` attempts, the handler's own time not counted. With SubscribeOptions' defaults
 * (5 attempts, 200 ms doubled) 200 + 400 + 800 + 1600 ms = 3 s.
 */
export function retryTimeBeforeDeadLetterMs(
  options: Pick<SubscribeOptions<unknown>, 'maxAttempts' | 'backoff'> = {},
): number {
  const policy = deliveryPolicy(options);
  let total = 0;
  for (let retry = 1; retry < policy.maxAttempts; retry++) total += backoffDelayMs(retry, policy.backoff);
  return total;
}

export function assertValidSubscription(options: SubscribeOptions<unknown>): void {
  if (!options.groupId) throw new TypeError('subscribe needs a groupId');
  if (options.topics.length === 0) throw new TypeError(`group ${options.groupId} subscribes to no topic`);
  options.topics.forEach(assertValidTopicName);
}
