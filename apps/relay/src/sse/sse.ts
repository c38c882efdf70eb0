import { createParser, type EventSourceMessage, type EventSourceParser } from 'eventsource-parser';

/** What a server-sent event stream is answered as. */
export const SSE_CONTENT_TYPE = 'text/event-stream; charset=utf-8';

/** One server-sent event: `event` is absent for plain `data:` frames (OpenAI, Gemini). */
export interface SseEvent {
  event?: string;
  data: string;
}

/** Events larger than this are a broken or hostile upstream, not a real answer chunk. */
const MAX_EVENT_CHARS = 8 * 1024 * 1024;

export class SseProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SseProtocolError';
  }
}

/**
 * Incremental SSE decoder over raw bytes. Chunk boundaries may fall anywhere: inside a line,
 * between `\r` and `\n`, or in the middle of a multi-byte UTF-8 character.
 */
export class SseDecoder {
  private readonly text = new TextDecoder('utf-8');
  private readonly parser: EventSourceParser;
  private pending: SseEvent[] = [];
  private failure: SseProtocolError | undefined;

  constructor() {
    this.parser = createParser({
      maxBufferSize: MAX_EVENT_CHARS,
      onEvent: (message: EventSourceMessage) => this.pending.push(toSseEvent(message)),
      onError: (error) => {
        // Unknown fields are legal SSE (they are ignored); only an overflow is fatal.
        if (error.type === 'max-buffer-size-exceeded') this.failure = new SseProtocolError(error.message);
      },
    });
  }

  /** Feeds the next piece of the body and returns the events it completed. */
  push(chunk: Uint8Array | string): SseEvent[] {
    const decoded = typeof chunk === 'string' ? chunk : this.text.decode(chunk, { stream: true });
    if (decoded.length > 0) this.parser.feed(decoded);
    return this.drain();
  }

  /** Ends the body. As the SSE format says, an event cut off before its blank line is dropped. */
  end(): SseEvent[] {
    const rest = this.text.decode();
    if (rest.length > 0) this.parser.feed(rest);
    this.parser.reset();
    return this.drain();
  }

  private drain(): SseEvent[] {
    if (this.failure !== undefined) throw this.failure;
    const events = this.pending;
    this.pending = [];
    return events;
  }
}

function toSseEvent(message: EventSourceMessage): SseEvent {
  return message.event === undefined ? { data: message.data } : { event: message.event, data: message.data };
}

/** Serialises one event; multi-line data becomes several `data:` lines as the format requires. */
export function serializeSseEvent(event: SseEvent): string {
  const head = event.event === undefined ? '' : `event: ${event.event}\n`;
  const data = event.data
    .split(/\r\n|\r|\n/)
    .map((line) => `data: ${line}\n`)
    .join('');
  return `${head}${data}\n`;
}

/**
 * Serialises a JSON payload as one event. JSON.stringify escapes every line break, so the payload is
 * always a single `data:` line and needs none of serializeSseEvent's splitting (this runs per chunk).
 */
export function serializeSseJson(payload: unknown, event?: string): string {
  const data = `data: ${JSON.stringify(payload)}\n\n`;
  return event === undefined ? data : `event: ${event}\n${data}`;
}

/** OpenAI's end-of-stream sentinel. */
export const OPENAI_STREAM_DONE = '[DONE]';
