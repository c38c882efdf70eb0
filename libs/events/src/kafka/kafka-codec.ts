import type { IHeaders, KafkaMessage, Message } from 'kafkajs';
import type { EventRecord, OutgoingEvent } from '../port/event-bus.port';
import { encodeValue } from '../shared/validate-events';

/** A message as the publisher hands it to kafkajs. */
export interface KafkaMessageOut extends Message {
  key: string;
  value: Buffer | null;
  headers: Record<string, string>;
}

/**
 * The value's JSON text is made into bytes here, once: the produce request copies them as they are
 * (kafkajs-produce-encoding), and what waits for its request until the flush is a Buffer's view of a
 * shared pool, not the text (flattened when its bytes were first counted, 0.6 KB of young heap a usage
 * event that lived across scavenges; bench/ANALYSIS.md, h122).
 */
export function toKafkaMessage(event: OutgoingEvent): KafkaMessageOut {
  const json = encodeValue(event);
  return {
    key: event.key,
    value: json === null ? null : Buffer.from(json, 'utf8'),
    headers: { ...event.headers },
  };
}

export type DecodedMessage =
  { ok: true; record: EventRecord } | { ok: false; raw: EventRecord; error: Error };

/**
 * Broker message → EventRecord. A value that is not JSON cannot reach a handler; it comes back
 * with its raw text so the consumer can dead-letter it.
 */
export function decodeKafkaMessage(topic: string, partition: number, message: KafkaMessage): DecodedMessage {
  const record: EventRecord = {
    topic,
    partition,
    offset: message.offset,
    key: message.key === null ? '' : message.key.toString('utf8'),
    value: null,
    headers: decodeHeaders(message.headers),
    timestamp: Number(message.timestamp),
  };
  if (message.value === null) return { ok: true, record };
  const text = message.value.toString('utf8');
  try {
    record.value = JSON.parse(text);
    return { ok: true, record };
  } catch {
    // Not JSON.parse's message: it quotes the start of the value, which may hold user data, and is logged.
    const error = new SyntaxError(`value is not JSON (${text.length} characters)`);
    record.value = text;
    return { ok: false, raw: record, error };
  }
}

function decodeHeaders(headers: IHeaders | undefined): Record<string, string> {
  const decoded: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === undefined) continue;
    // A header repeated on the wire: the last one wins, as with a plain object.
    const last = Array.isArray(value) ? value[value.length - 1] : value;
    if (last !== undefined) decoded[name] = last.toString();
  }
  return decoded;
}
