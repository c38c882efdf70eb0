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

const OPENAI_TYPE: Partial<Record<ErrorCode, string>> = {
  [ErrorCode.InvalidApiKey]: 'invalid_request_error',
  [ErrorCode.InsufficientQuota]: 'insufficient_quota',
  [ErrorCode.RateLimited]: 'rate_limit_error',
  [ErrorCode.ValidationFailed]: 'invalid_request_error',
  [ErrorCode.ModelNotFound]: 'invalid_request_error',
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

/** The error body each provider's official SDK parses. */
export function renderProtocolError(
  protocol: ApiProtocol,
  status: number,
  code: ErrorCode,
  message: string,
): unknown {
  switch (protocol) {
    case 'openai':
      return {
        error: {
          message,
          type: OPENAI_TYPE[code] ?? (status >= 500 ? 'server_error' : 'invalid_request_error'),
          param: null,
          code,
        },
      };
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
