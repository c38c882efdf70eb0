import type { AuthMessageKey, ErrorCode } from '@tollgate/contracts';
import { AppException } from '@tollgate/platform';
import { message, type MessageParams } from './auth-messages';
import type { Locale } from './locale';

/** An AppException whose message is the caller-language text of an accounts message key. */
export function localizedException(
  code: ErrorCode,
  key: AuthMessageKey,
  locale: Locale,
  params?: MessageParams,
): AppException {
  return new AppException(code, message(key, locale, params));
}
