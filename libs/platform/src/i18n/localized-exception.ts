import type { ErrorCode } from '@tollgate/contracts';
import { AppException, type AppExceptionOptions } from '../errors/app.exception';
import type { Locale } from './locale';
import { messageLookup, type MessageParams, type MessageTables } from './message-table';

/** An AppException whose message is the caller-language text of one of a service's message keys. */
export type LocalizedException<K extends string> = (
  code: ErrorCode,
  key: K,
  locale: Locale,
  params?: MessageParams,
  options?: AppExceptionOptions,
) => AppException;

/** The `localizedException(code, key, locale, params?, options?)` of a service's message tables. */
export function localizedExceptions<K extends string>(tables: MessageTables<K>): LocalizedException<K> {
  const message = messageLookup(tables);
  return (code, key, locale, params, options) =>
    new AppException(code, message(key, locale, params), undefined, options);
}
