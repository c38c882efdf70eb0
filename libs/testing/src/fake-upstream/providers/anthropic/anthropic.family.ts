import { headerValue, type IncomingHeaders, type ProviderFamily } from '../../fake-upstream.provider';
import { jsonReply, type JsonReply } from '../../fake-upstream.reply';

const USUAL_ERRORS: Readonly<Record<number, { type: string; message: string }>> = {
  400: { type: 'invalid_request_error', message: 'Invalid request.' },
  401: { type: 'authentication_error', message: 'invalid x-api-key' },
  402: { type: 'billing_error', message: 'Your credit balance is too low to access the Anthropic API.' },
  403: {
    type: 'permission_error',
    message: 'Your API key does not have permission to use the specified resource.',
  },
  404: { type: 'not_found_error', message: 'The requested resource could not be found.' },
  413: { type: 'request_too_large', message: 'Request exceeds the maximum allowed number of bytes.' },
  429: { type: 'rate_limit_error', message: 'Number of request tokens has exceeded your rate limit.' },
  500: { type: 'api_error', message: 'Internal server error' },
  504: { type: 'timeout_error', message: 'Request timed out.' },
  529: { type: 'overloaded_error', message: 'Overloaded' },
};

/** Anthropic's error envelope: `{"type":"error","error":{"type","message"}}`. */
export function anthropicError(status: number, message?: string): JsonReply {
  const usual = USUAL_ERRORS[status] ?? {
    type: status >= 500 ? 'api_error' : 'invalid_request_error',
    message: `The server answered with status ${status}.`,
  };
  return jsonReply(status, { type: 'error', error: { type: usual.type, message: message ?? usual.message } });
}

/** API version 2026-10-21 onwards: the official SDKs (TypeScript 1.x) send the key as a Bearer token instead of x-api-key. */
function presentedKey(
  headers: IncomingHeaders,
): { key: string; header: 'x-api-key' | 'authorization' } | undefined {
  const apiKey = headerValue(headers, 'x-api-key');
  if (apiKey !== undefined && apiKey.length > 0) return { key: apiKey, header: 'x-api-key' };
  const authorization = headerValue(headers, 'authorization');
  if (authorization?.startsWith('Bearer ') && authorization.length > 7)
    return { key: authorization.slice(7), header: 'authorization' };
  return undefined;
}

export const anthropicFamily: ProviderFamily = {
  name: 'anthropic',
  authenticate(headers, _query, keys) {
    const presented = presentedKey(headers);
    if (presented === undefined) return anthropicError(401, 'x-api-key header is required');
    if (presented.key !== keys.anthropic) {
      return anthropicError(
        401,
        presented.header === 'x-api-key' ? 'invalid x-api-key' : 'invalid authorization header',
      );
    }
    if (headerValue(headers, 'anthropic-version') === undefined) {
      return anthropicError(400, 'anthropic-version: header is required');
    }
    return null;
  },
  error: (status, message) => anthropicError(status, message),
};
