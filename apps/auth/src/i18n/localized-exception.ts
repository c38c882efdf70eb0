import { ErrorCode, type AuthMessageKey } from '@tollgate/contracts';
import { AppException, type AppExceptionOptions, type Locale, type MessageParams } from '@tollgate/platform';
import { message } from './auth-messages';

/** An AppException whose message is the caller-language text of an accounts message key. */
export function localizedException(
  code: ErrorCode,
  key: AuthMessageKey,
  locale: Locale,
  params?: MessageParams,
  options?: AppExceptionOptions,
): AppException {
  return new AppException(code, message(key, locale, params), undefined, options);
}

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
