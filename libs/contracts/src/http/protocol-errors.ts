import { ErrorCode } from './error-codes';

/** The API dialect a /v1 caller speaks, chosen by path: its errors must come back in its own shape. */
export type ApiProtocol = 'openai' | 'anthropic' | 'gemini';

export function protocolOfPath(path: string): ApiProtocol {
  if (path === '/v1beta' || path.startsWith('/v1beta/') || path.startsWith('/v1beta?')) return 'gemini';
  // Gemini's v1 methods (`/v1/models/{model}:generateContent`, …); `GET /v1/models/{id}` stays OpenAI's.
  if (/^\/v1\/models\/[^/?:]+:[A-Za-z]+(?:\?|$)/.test(path)) return 'gemini';
  if (path === '/v1/messages' || path.startsWith('/v1/messages/') || path.startsWith('/v1/messages?'))
    return 'anthropic';
  return 'openai';
}

/**
 * Each code as an OpenAI client reads it: `code` in OpenAI's own spelling where OpenAI has one (clients
 * and frameworks branch on it: retry on rate_limit_exceeded, stop on insufficient_quota, trim history on
 * context_length_exceeded), ours where it has none; `type` OpenAI's, or `undefined` to follow the status
 * (an upstream's 400 passed on as 400 is the request's error, not the server's).
 */
const OPENAI_ERROR: Record<ErrorCode, { type: string | undefined; code: string }> = {
  [ErrorCode.ValidationFailed]: { type: 'invalid_request_error', code: 'validation_failed' },
  [ErrorCode.NotFound]: { type: 'invalid_request_error', code: 'not_found' },
  [ErrorCode.Conflict]: { type: 'invalid_request_error', code: 'conflict' },
  [ErrorCode.Unauthenticated]: { type: 'invalid_request_error', code: 'unauthenticated' },
  [ErrorCode.Forbidden]: { type: 'invalid_request_error', code: 'forbidden' },
  [ErrorCode.RateLimited]: { type: 'rate_limit_error', code: 'rate_limit_exceeded' },
  [ErrorCode.PayloadTooLarge]: { type: 'invalid_request_error', code: 'payload_too_large' },
  [ErrorCode.ServiceUnavailable]: { type: 'server_error', code: 'service_unavailable' },
  [ErrorCode.Internal]: { type: 'server_error', code: 'internal_error' },
  [ErrorCode.UserHeaderMismatch]: { type: 'invalid_request_error', code: 'user_header_mismatch' },
  [ErrorCode.UpstreamServiceDown]: { type: 'server_error', code: 'upstream_service_down' },
  [ErrorCode.InvalidApiKey]: { type: 'invalid_request_error', code: 'invalid_api_key' },
  [ErrorCode.ModelNotAllowed]: { type: 'invalid_request_error', code: 'model_not_allowed' },
  [ErrorCode.IpNotAllowed]: { type: 'invalid_request_error', code: 'ip_not_allowed' },
  [ErrorCode.InsufficientQuota]: { type: 'insufficient_quota', code: 'insufficient_quota' },
  [ErrorCode.ModelNotFound]: { type: 'invalid_request_error', code: 'model_not_found' },
  [ErrorCode.ContextLengthExceeded]: { type: 'invalid_request_error', code: 'context_length_exceeded' },
  [ErrorCode.NoChannelAvailable]: { type: 'server_error', code: 'no_channel_available' },
  [ErrorCode.UpstreamError]: { type: undefined, code: 'upstream_error' },
  [ErrorCode.UpstreamTimeout]: { type: 'server_error', code: 'upstream_timeout' },
};

const ANTHROPIC_TYPE: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  502: 'api_error',
  503: 'overloaded_error',
  504: 'api_error',
};

const GEMINI_STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  402: 'FAILED_PRECONDITION',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  413: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  502: 'UNAVAILABLE',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/**
 * The error body each provider's official SDK parses. `param` names the one request field at fault
 * (`messages`, `messages[1].content`); only OpenAI's shape has a place for it.
 */
export function renderProtocolError(
  protocol: ApiProtocol,
  status: number,
  code: ErrorCode,
  message: string,
  param?: string,
): unknown {
  switch (protocol) {
    case 'openai': {
      const openai = OPENAI_ERROR[code];
      return {
        error: {
          message,
          type: openai.type ?? (status >= 500 ? 'server_error' : 'invalid_request_error'),
          param: param ?? null,
          code: openai.code,
        },
      };
    }
    case 'anthropic':
      return {
        type: 'error',
        error: {
          type: ANTHROPIC_TYPE[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error'),
          message,
        },
      };
    case 'gemini':
      return {
        error: {
          code: status,
          message,
          status: GEMINI_STATUS[status] ?? (status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT'),
        },
      };
  }
}
