import type { CallAbort } from '../upstream/call-abort';

/** How every JSON answer to a client is labelled, serialised here or passed through as the upstream's text. */
export const JSON_REPLY_CONTENT_TYPE = 'application/json; charset=utf-8';

/** The client went away (closed the connection) before the answer was complete. */
export class ClientGoneError extends Error {
  constructor() {
    super('the client closed the connection');
    this.name = 'ClientGoneError';
  }
}

/**
 * The pipeline's view of the client connection, so it never touches the HTTP framework: one JSON or
 * byte answer, or a stream written piece by piece with back-pressure.
 */
export interface ClientReply extends CallAbort {
  /** Aborted when the client goes away; upstream calls are made with the reply as their abort. */
  readonly aborted: boolean;
  /** Headers for whatever answer follows (rate limits): set before the answer is sent. */
  setHeaders(headers: Readonly<Record<string, string>>): void;
  sendJson(status: number, body: unknown, headers?: Readonly<Record<string, string>>): void;
  /** Sends a body as it is (pass-through answers: JSON text, audio bytes). */
  sendRaw(status: number, contentType: string, body: Buffer | string): void;
  /** Sends 200 with the content type; the body follows through write(). */
  startStream(contentType: string): void;
  /** Resolves once the client may take more; throws ClientGoneError once it is gone. */
  write(text: string | Buffer): Promise<void>;
  end(): void;
  readonly streamStarted: boolean;
}
