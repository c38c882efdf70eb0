import { headerValue, type ProviderFamily } from '../../fake-upstream.provider';
import { jsonReply, type JsonReply } from '../../fake-upstream.reply';

const USUAL_ERRORS: Readonly<Record<number, { status: string; message: string }>> = {
  400: { status: 'INVALID_ARGUMENT', message: 'Request contains an invalid argument.' },
  401: { status: 'UNAUTHENTICATED', message: 'Request had invalid authentication credentials.' },
  403: { status: 'PERMISSION_DENIED', message: 'The caller does not have permission' },
  404: { status: 'NOT_FOUND', message: 'Requested entity was not found.' },
  429: { status: 'RESOURCE_EXHAUSTED', message: 'Resource has been exhausted (e.g. check quota).' },
  500: { status: 'INTERNAL', message: 'An internal error has occurred. Please retry or report it.' },
  503: { status: 'UNAVAILABLE', message: 'The model is overloaded. Please try again later.' },
  504: { status: 'DEADLINE_EXCEEDED', message: 'Deadline expired before operation could complete.' },
};

/** Google's error envelope: `{"error":{"code","message","status"}}`. */
export function geminiError(status: number, message?: string, details?: readonly unknown[]): JsonReply {
  const usual = USUAL_ERRORS[status] ?? {
    status: 'UNKNOWN',
    message: `The server answered with status ${status}.`,
  };
  const error: Record<string, unknown> = {
    code: status,
    message: message ?? usual.message,
    status: usual.status,
  };
  if (details !== undefined) error['details'] = details;
  return jsonReply(status, { error });
}

/**
 * The real API answers a wrong key with 400 INVALID_ARGUMENT (reason API_KEY_INVALID) and a
 * missing one with 403 PERMISSION_DENIED, not 401; the fake does the same so that relay code
 * is written against what Gemini really sends.
 */
export const geminiFamily: ProviderFamily = {
  name: 'gemini',
  authenticate(headers, query, keys) {
    const key = headerValue(headers, 'x-goog-api-key') ?? query.get('key') ?? undefined;
    if (key === keys.gemini) return null;
    if (key === undefined || key.length === 0) {
      return geminiError(
        403,
        "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
      );
    }
    return geminiError(400, 'API key not valid. Please pass a valid API key.', [
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'API_KEY_INVALID',
        domain: 'googleapis.com',
        metadata: { service: 'generativelanguage.googleapis.com' },
      },
    ]);
  },
  error: (status, message) => geminiError(status, message),
};
