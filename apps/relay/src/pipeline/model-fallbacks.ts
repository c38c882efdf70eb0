import { ErrorCode } from '@tollgate/contracts';
import { RelayError } from '../errors/relay-error';
import { RateLimitedError } from '../limits/rate-limiter';
import type { ChatCompletionRequest } from '../canonical';
import { QuotaRefusedError } from '../quota/quota-reservations';

/**
 * The models to try, in order: `model`, then each of `models` not tried yet. `models` is taken off the
 * request, since no upstream knows it.
 */
export function takeModelFallbacks(request: ChatCompletionRequest): string[] {
  const record = request as unknown as Record<string, unknown>;
  const listed = record['models'];
  delete record['models'];
  if (listed === undefined) return [request.model];
  const models = Array.isArray(listed) ? listed.filter((m): m is string => typeof m === 'string') : [];
  return [...new Set([request.model, ...models])];
}

/**
 * Whether another model could serve a call this error refused before the client got a byte: the model
 * is unknown, not for this key, or has no channel that answered (busy, failing, timed out, limited by
 * the provider). The caller's own limits and balance refuse every model alike.
 */
export function worthAnotherModel(error: unknown): boolean {
  if (!(error instanceof RelayError)) return false;
  if (error instanceof RateLimitedError || error instanceof QuotaRefusedError) return false;
  return (
    error.code === ErrorCode.ModelNotFound ||
    error.code === ErrorCode.ModelNotAllowed ||
    error.status === 429 ||
    error.status >= 500
  );
}
