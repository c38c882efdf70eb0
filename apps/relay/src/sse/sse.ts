import { StringDecoder } from 'node:string_decoder';
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

/** A UTF-8 byte order mark, which the SSE format says a stream may begin with and a reader drops. */
const BOM = '\uFEFF';

/**
 * Incremental SSE decoder over raw bytes. Chunk boundaries may fall anywhere: inside a line,
 * between `\r` and `\n`, or in the middle of a multi-byte UTF-8 character.
 */
export class SseDecoder {
  /**
   * Node's own decoder rather than TextDecoder's streaming mode: the same text (invalid bytes as
   * U+FFFD, a character split across reads kept for the next), at a third of the cost on a stream's
   * first read, which is on the way to its first token (bench/ANALYSIS.md, h113).
   */
  private readonly text = new StringDecoder('utf8');
  private started = false;
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
    const decoded = typeof chunk === 'string' ? chunk : this.text.write(chunk);
    if (decoded.length > 0) this.feed(decoded);
    return this.drain();
  }

  /** Ends the body. As the SSE format says, an event cut off before its blank line is dropped. */
  end(): SseEvent[] {
    const rest = this.text.end();
    if (rest.length > 0) this.feed(rest);
    this.parser.reset();
    return this.drain();
  }

  private feed(text: string): void {
    if (!this.started) {
      this.started = true;
      if (text.startsWith(BOM)) text = text.slice(BOM.length);
    }
    if (text.length > 0) this.parser.feed(text);
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
