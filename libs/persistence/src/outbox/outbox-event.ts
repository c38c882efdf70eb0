import type { OutgoingEvent } from '@tollgate/events';

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
  return { topic: event.topic, key: event.key, value: event.value, headers: { ...event.headers } };
}

export function toOutgoingEvent(row: OutboxRow): OutgoingEvent {
  return { topic: row.topic, key: row.key, value: row.value ?? null, headers: { ...row.headers } };
}
