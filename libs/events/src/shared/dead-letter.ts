import {
  DEAD_LETTER_HEADERS,
  deadLetterTopic,
  type EventRecord,
  type OutgoingEvent,
} from '../port/event-bus.port';
import { errorMessage } from './logger';

const MAX_ERROR_LENGTH = 1000;

/** The dead-letter copy of a record: same key, value and headers, plus where and why it failed. */
export function deadLetterEvent(
  record: EventRecord,
  groupId: string,
  error: unknown,
  attempts: number,
): OutgoingEvent {
  return {
    topic: deadLetterTopic(record.topic),
    key: record.key,
    value: record.value,
    headers: {
      ...record.headers,
      [DEAD_LETTER_HEADERS.topic]: record.topic,
      [DEAD_LETTER_HEADERS.partition]: String(record.partition),
      [DEAD_LETTER_HEADERS.offset]: record.offset,
      [DEAD_LETTER_HEADERS.groupId]: groupId,
      [DEAD_LETTER_HEADERS.attempts]: String(attempts),
      [DEAD_LETTER_HEADERS.error]: errorMessage(error).slice(0, MAX_ERROR_LENGTH),
    },
  };
}
