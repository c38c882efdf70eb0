/**
 * Why one attempt on a channel failed: the upstream could not be reached (DNS, refused, reset,
 * TLS, timeout before an answer), or it answered with an error status. errorType / errorCode
 * carry the provider's own words: OpenAI's `error.type` / `error.code`, Anthropic's
 * `error.type`, Gemini's `error.status` / the `reason` of its error details.
 */
export type AttemptFailure =
  | {
      kind: 'connect';
      message: string;
      /** Connected and sent, then no headers in time: the upstream hangs (a streamed call's first byte). */
      headersTimedOut?: boolean;
    }
  | { kind: 'http'; status: number; errorType?: string; errorCode?: string; message?: string };

type HttpFailure = Extract<AttemptFailure, { kind: 'http' }>;

/**
 * Reads an upstream error body in any of the three families' shapes:
 * OpenAI `{error: {message, type, code}}`, Anthropic `{type: 'error', error: {type, message}}`,
 * Gemini `{error: {code, message, status, details: [{reason}]}}` (also wrapped in an array).
 * A body that is not JSON, or JSON of another shape, leaves only the status.
 */
export function upstreamHttpFailure(status: number, body: unknown): HttpFailure {
  const failure: HttpFailure = { kind: 'http', status };
  const error = errorObjectOf(typeof body === 'string' ? parseJson(body) : body);
  if (!error) return failure;
  const errorType = stringField(error, 'type') ?? stringField(error, 'status');
  const errorCode = stringField(error, 'code') ?? firstDetailReason(error);
  const message = stringField(error, 'message');
  if (errorType !== undefined) failure.errorType = errorType;
  if (errorCode !== undefined) failure.errorCode = errorCode;
  if (message !== undefined) failure.message = message;
  return failure;
}

function errorObjectOf(body: unknown): Record<string, unknown> | undefined {
  const top = Array.isArray(body) ? (body[0] as unknown) : body;
  if (!isRecord(top)) return undefined;
  return isRecord(top.error) ? top.error : undefined;
}

function firstDetailReason(error: Record<string, unknown>): string | undefined {
  const details = error.details;
  if (!Array.isArray(details)) return undefined;
  for (const detail of details as unknown[]) {
    if (isRecord(detail)) {
      const reason = stringField(detail, 'reason');
      if (reason !== undefined) return reason;
    }
  }
  return undefined;
}

function stringField(record: Record<string, unknown>, field: string): string | undefined {
  const value = record[field];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
