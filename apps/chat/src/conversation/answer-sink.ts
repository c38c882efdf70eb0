import type { ChatStreamEvent } from '@tollgate/contracts';

/** Where an answer streams to: the browser's connection, as server-sent events. */
export interface AnswerSink {
  /** Aborted when the browser goes away or stops the answer. */
  readonly signal: AbortSignal;
  /** Sends the stream's headers; nothing before this may fail the request as a whole. */
  open(): void;
  /** One event; resolves once the browser may take more; never throws (a gone browser drops it). */
  send(event: ChatStreamEvent): Promise<void>;
  end(): void;
}
