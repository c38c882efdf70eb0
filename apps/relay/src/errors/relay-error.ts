import { ERROR_STATUS, renderProtocolError, type ApiProtocol, type ErrorCode } from '@tollgate/contracts';

/**
 * An expected refusal on the hot path (bad key, no balance, upstream trouble). Its message is shown
 * to the caller in the caller's protocol, so it must be written for them and never carry a prompt.
 */
export class RelayError extends Error {
  readonly status: number;
  /** The wait of `Retry-After` to the millisecond, for `retry-after-ms`, when it is known that finely. */
  readonly retryAfterMs?: number;
  /** Headers the refusal carries besides the wait (a rate limit's `x-ratelimit-*`). */
  readonly extraHeaders?: Readonly<Record<string, string>>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Seconds for a `Retry-After` header (429 and 503). */
    readonly retryAfterSeconds?: number,
    /** Overrides the code's usual status, e.g. an upstream 400 passed on as 400. */
    status?: number,
    /** The one request field at fault, as OpenAI's `param` names it (`messages[1].content`). */
    readonly param?: string,
  ) {
    super(message);
    this.name = 'RelayError';
    this.status = status ?? ERROR_STATUS[code];
  }
}

export interface RenderedRelayError {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** The error in the shape the caller's SDK parses, with `Retry-After` when the error has one. */
export function renderRelayError(protocol: ApiProtocol, error: RelayError): RenderedRelayError {
  const headers: Record<string, string> = { ...error.extraHeaders };
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds);
  if (error.retryAfterMs !== undefined) headers['retry-after-ms'] = String(Math.ceil(error.retryAfterMs));
  return {
    status: error.status,
    headers,
    body: renderProtocolError(protocol, error.status, error.code, error.message, error.param),
  };
}
