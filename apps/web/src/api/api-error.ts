/**
 * Why a call failed:
 * - `http`: the server answered with an error status;
 * - `rejected`: the server answered 2xx with `success: false` (or without the data the call needs);
 * - `network`: no answer, or one that is not the JSON envelope;
 * - `invalid_user_id`: the stored user id is not a positive whole number, so nothing was sent.
 */
export type ApiErrorKind = 'http' | 'rejected' | 'network' | 'invalid_user_id';

/** The one error type every API call throws. `message` is the server's text, or '' when it gave none. */
export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
