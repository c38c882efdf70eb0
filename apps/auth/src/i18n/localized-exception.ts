import { ErrorCode, type AuthMessageKey } from '@tollgate/contracts';
import { localizedExceptions, type AppException, type Locale } from '@tollgate/platform';
import { MESSAGES } from './auth-messages';

/** An AppException whose message is the caller-language text of an accounts message key. */
export const localizedException = localizedExceptions(MESSAGES);

/** 429 with `Retry-After`, its message saying the same number of seconds. */
export function tooManyRequests(
  key: AuthMessageKey,
  locale: Locale,
  retryAfterSeconds: number,
): AppException {
  return localizedException(
    ErrorCode.RateLimited,
    key,
    locale,
    { seconds: retryAfterSeconds },
    { headers: { 'retry-after': String(retryAfterSeconds) } },
  );
}
