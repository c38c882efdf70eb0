import { ErrorCode } from '@tollgate/contracts';
import { attemptOutcome, clientErrorForFailure, retryAfterSeconds, retryReason } from './upstream-failure';

describe('retryAfterSeconds', () => {
  it('reads seconds and HTTP dates, and ignores what is neither', () => {
    expect(retryAfterSeconds('7')).toBe(7);
    expect(retryAfterSeconds('1.2')).toBe(2);
    expect(retryAfterSeconds(new Date(10_000).toUTCString(), 0)).toBe(10);
    expect(retryAfterSeconds('soon')).toBeUndefined();
    expect(retryAfterSeconds(undefined)).toBeUndefined();
  });
});

describe('clientErrorForFailure', () => {
  it('passes the client’s own mistakes on with the upstream’s message', () => {
    const error = clientErrorForFailure({ kind: 'http', status: 400, message: 'max_tokens is too large' });
    expect(error).toMatchObject({
      status: 400,
      code: ErrorCode.ValidationFailed,
      message: 'max_tokens is too large',
    });
    expect(clientErrorForFailure({ kind: 'http', status: 413 }).status).toBe(413);
  });

  it("tells a prompt too long for the model as OpenAI does, with the provider's words", () => {
    const failure = {
      kind: 'http' as const,
      status: 400,
      errorType: 'invalid_request_error',
      message: 'prompt is too long: 208310 tokens > 200000 maximum',
    };
    expect(clientErrorForFailure(failure)).toMatchObject({
      status: 400,
      code: ErrorCode.ContextLengthExceeded,
      message: 'prompt is too long: 208310 tokens > 200000 maximum',
      param: 'messages',
    });
  });

  it('answers 429 with Retry-After, 504 for timeouts and 502 for the rest, without the provider’s text', () => {
    expect(clientErrorForFailure({ kind: 'http', status: 429 }, 3)).toMatchObject({
      status: 429,
      retryAfterSeconds: 3,
    });
    expect(clientErrorForFailure({ kind: 'http', status: 429 }).retryAfterSeconds).toBe(1);
    expect(clientErrorForFailure({ kind: 'http', status: 504 }).status).toBe(504);
    expect(clientErrorForFailure({ kind: 'connect', message: 'UND_ERR_HEADERS_TIMEOUT' }).status).toBe(504);
    const hidden = clientErrorForFailure({ kind: 'http', status: 401, message: 'Incorrect API key sk-up…' });
    expect(hidden).toMatchObject({ status: 502, code: ErrorCode.UpstreamError });
    expect(hidden.message).not.toContain('sk-up');
    expect(clientErrorForFailure({ kind: 'connect', message: 'ECONNREFUSED' }).status).toBe(502);
  });
});

describe('retryReason', () => {
  it('names the bounded reason for the retries metric', () => {
    expect(retryReason({ kind: 'connect', message: 'x' })).toBe('connect');
    expect(retryReason({ kind: 'http', status: 429 })).toBe('rate_limited');
    expect(retryReason({ kind: 'http', status: 503 })).toBe('upstream_5xx');
  });

  it('tells a dead key, an empty account and a hanging stream from upstream trouble', () => {
    expect(retryReason({ kind: 'http', status: 401, errorCode: 'invalid_api_key' })).toBe('invalid_key');
    expect(retryReason({ kind: 'http', status: 401 })).toBe('invalid_key');
    expect(retryReason({ kind: 'http', status: 429, errorType: 'insufficient_quota' })).toBe(
      'quota_exhausted',
    );
    expect(retryReason({ kind: 'connect', message: 'UND_ERR_HEADERS_TIMEOUT', headersTimedOut: true })).toBe(
      'first_byte_timeout',
    );
  });
});

describe('attemptOutcome', () => {
  it('labels a failed attempt by its status class, bounded', () => {
    const outcomes = [
      { kind: 'connect', message: 'ECONNREFUSED' },
      { kind: 'connect', message: 'UND_ERR_HEADERS_TIMEOUT', headersTimedOut: true },
      { kind: 'http', status: 502 },
      { kind: 'http', status: 429 },
      { kind: 'http', status: 401 },
      { kind: 'http', status: 403 },
      { kind: 'http', status: 400 },
      { kind: 'http', status: 402 },
    ] as const;
    expect(outcomes.map(attemptOutcome)).toEqual([
      'connect_error',
      'timeout_first_byte',
      'upstream_5xx',
      'upstream_429',
      'auth',
      'auth',
      'other',
      'other',
    ]);
  });
});
