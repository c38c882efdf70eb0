import type { OutgoingEvent } from '@tollgate/events';
import { currentCorrelationHeaders } from '@tollgate/platform';

/** The columns an event is stored in while it waits in the outbox. */
export interface OutboxRow {
  topic: string;
  key: string;
  value: unknown;
  headers: Record<string, string>;
}

export function toOutboxRow(event: OutgoingEvent): OutboxRow {
  if (event.topic === '') throw new Error('An outbox event needs a topic');
  if (event.key === '') throw new Error(`An outbox event for ${event.topic} needs a key`);
  if (event.value === undefined) {
    throw new Error(`An outbox event for ${event.topic} has value undefined: use null for a tombstone`);
  }
  // The ids of the request that made the change travel with its event, even though the relay
  // publishes it later, outside that request.
  return {
    topic: event.topic,
    key: event.key,
    value: event.value,
    headers: { ...currentCorrelationHeaders(), ...event.headers },
  };
}

export function toOutgoingEvent(row: OutboxRow): OutgoingEvent {
  return { topic: row.topic, key: row.key, value: row.value ?? null, headers: { ...row.headers } };
}
