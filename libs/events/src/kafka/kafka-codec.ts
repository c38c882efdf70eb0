import type { IHeaders, KafkaMessage, Message } from 'kafkajs';
import type { EventRecord, OutgoingEvent } from '../port/event-bus.port';
import type { ReadRecord } from '../shared/deliver-batch';
import { encodeValue } from '../shared/validate-events';

export function toKafkaMessage(event: OutgoingEvent): Message {
  return { key: event.key, value: encodeValue(event), headers: { ...event.headers } };
}

export type DecodedMessage =
  { ok: true; record: EventRecord } | { ok: false; raw: EventRecord; error: Error };

/**
 * Broker message → EventRecord. A value that is not JSON cannot reach a handler; it comes back
 * with its raw text so the consumer can dead-letter it.
 */
export function decodeKafkaMessage(topic: string, partition: number, message: KafkaMessage): DecodedMessage {
  const record = recordOf(topic, partition, message);
  const error = parseValue(record, message.value);
  return error === undefined ? { ok: true, record } : { ok: false, raw: record, error };
}

/**
 * Broker message → a record ready for a subscription's handler, its value passed through `decode`, or
 * one that can never be handled, with the reason: a value that is not JSON (with its raw text), or one
 * `decode` throws for (with the parsed value). The same as decodeKafkaMessage then decodeRecord, with
 * one record object made an event instead of two (a consumer's batch holds every one of them).
 */
export function readKafkaMessage(
  topic: string,
  partition: number,
  message: KafkaMessage,
  decode: ((value: unknown) => unknown) | undefined,
): ReadRecord<unknown> {
  const record = recordOf(topic, partition, message);
  const error = parseValue(record, message.value);
  if (error !== undefined) return { ok: false, record, error };
  if (!decode) return { ok: true, record };
  try {
    // Assigned only once `decode` returned: a record it throws for keeps the value it refused.
    record.value = decode(record.value);
    return { ok: true, record };
  } catch (error) {
    return { ok: false, record, error };
  }
}

function recordOf(topic: string, partition: number, message: KafkaMessage): EventRecord {
  return {
    topic,
    partition,
    offset: message.offset,
    key: message.key === null ? '' : message.key.toString('utf8'),
    value: null,
    headers: decodeHeaders(message.headers),
    timestamp: Number(message.timestamp),
  };
}

/** Sets `record.value` to the parsed value (null for a tombstone), or to its raw text and says why not. */
function parseValue(record: EventRecord, value: Buffer | null): Error | undefined {
  if (value === null) return undefined;
  const text = value.toString('utf8');
  try {
    record.value = JSON.parse(text);
    return undefined;
  } catch {
    record.value = text;
    // Not JSON.parse's message: it quotes the start of the value, which may hold user data, and is logged.
    return new SyntaxError(`value is not JSON (${text.length} characters)`);
  }
}

function decodeHeaders(headers: IHeaders | undefined): Record<string, string> {
  const decoded: Record<string, string> = {};
  // for…in rather than Object.entries: no array of pairs an event (the headers are a plain object).
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    // A header repeated on the wire: the last one wins, as with a plain object.
    const last = Array.isArray(value) ? value[value.length - 1] : value;
    if (last !== undefined) decoded[name] = last.toString();
  }
  return decoded;
}
