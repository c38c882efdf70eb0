import { ErrorCode } from '@tollgate/contracts';
import { RelayError } from '../errors/relay-error';
import { detectChannelFault, isContextLengthRefusal, type AttemptFailure } from '../routing';
import type { AttemptOutcome, RetryReason } from './relay-metrics';

const DEFAULT_RETRY_AFTER_SECONDS = 1;

/** `Retry-After` in seconds from an upstream header (seconds or an HTTP date), if it has a usable one. */
export function retryAfterSeconds(
  header: string | string[] | undefined,
  now = Date.now(),
): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/**
 * What the client is told when the last attempt failed. The client's own mistakes (400, 413, 422) pass
 * on with the upstream's words, since only they say what to fix; every other upstream trouble is the
 * relay's, answered 429, 502 or 504 without the provider's text.
 */
export function clientErrorForFailure(failure: AttemptFailure, retryAfter?: number): RelayError {
  if (failure.kind === 'connect') {
    return /TIMEOUT/i.test(failure.message)
      ? new RelayError(ErrorCode.UpstreamTimeout, 'The upstream provider did not answer in time')
      : new RelayError(ErrorCode.UpstreamError, 'The upstream provider could not be reached');
  }
  if (isContextLengthRefusal(failure)) {
    // Told in the client's protocol as OpenAI tells it (400, context_length_exceeded, param messages),
    // with the provider's words, which say by how much: clients trim their history on it.
    return new RelayError(
      ErrorCode.ContextLengthExceeded,
      failure.message ?? "The prompt does not fit the model's context window",
      undefined,
      undefined,
      'messages',
    );
  }
  const { status } = failure;
  if (status === 400 || status === 422) {
    return new RelayError(
      ErrorCode.ValidationFailed,
      failure.message ?? 'The upstream provider refused the request',
      undefined,
      status,
    );
  }
  if (status === 413) {
    return new RelayError(
      ErrorCode.PayloadTooLarge,
      failure.message ?? 'The request is too large for the upstream provider',
    );
  }
  if (status === 429) {
    return new RelayError(
      ErrorCode.RateLimited,
      'The upstream provider is rate limiting requests; try again later',
      retryAfter ?? DEFAULT_RETRY_AFTER_SECONDS,
    );
  }
  if (status === 408 || status === 504) {
    return new RelayError(ErrorCode.UpstreamTimeout, 'The upstream provider did not answer in time');
  }
  return new RelayError(ErrorCode.UpstreamError, `The upstream provider answered with an error (${status})`);
}

/** Why a failed attempt was retried on another channel (only retriable failures get here). */
export function retryReason(failure: AttemptFailure): RetryReason {
  if (failure.kind === 'connect') return failure.headersTimedOut ? 'first_byte_timeout' : 'connect';
  const fault = detectChannelFault(failure);
  if (fault !== undefined) return fault.kind;
  return failure.status === 429 ? 'rate_limited' : 'upstream_5xx';
}

/** The outcome label of a failed attempt: by status, as the alerts read them (401/403 is `auth`). */
export function attemptOutcome(failure: AttemptFailure): AttemptOutcome {
  if (failure.kind === 'connect') return failure.headersTimedOut ? 'timeout_first_byte' : 'connect_error';
  const { status } = failure;
  if (status >= 500) return 'upstream_5xx';
  if (status === 429) return 'upstream_429';
  if (status === 401 || status === 403) return 'auth';
  return 'other';
}

/** The upstream said yes (2xx) but its answer cannot be read: not JSON, or not the shape its family sends. */
export function unreadableAnswer(): RelayError {
  return new RelayError(
    ErrorCode.UpstreamError,
    'The upstream provider sent an answer that could not be read',
  );
}

/** A JSON answer's value; text that is not JSON is an unreadable answer. */
export function parseJsonAnswer(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw unreadableAnswer();
  }
}
