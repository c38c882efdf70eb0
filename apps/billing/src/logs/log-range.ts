import {
  ErrorCode,
  LOG_DEFAULT_RANGE_SECONDS,
  LOG_RANGE_LIMIT_SECONDS,
  type LogFilters,
} from '@tollgate/contracts';
import type { Locale } from '@tollgate/platform';
import { localizedException } from '../i18n/messages';

/** Inclusive bounds in epoch seconds. */
export interface LogRange {
  start: number;
  end: number;
}

/**
 * The range a log query covers: the end defaults to now and the start to LOG_DEFAULT_RANGE_SECONDS
 * before the end. It must be shorter than 31 days, so no query walks a whole log.
 */
export function logRangeOf(
  filters: Pick<LogFilters, 'start_timestamp' | 'end_timestamp'>,
  nowSeconds: number,
  locale: Locale,
): LogRange {
  const end = filters.end_timestamp ?? nowSeconds;
  const start = filters.start_timestamp ?? end - LOG_DEFAULT_RANGE_SECONDS;
  if (start > end) {
    throw localizedException(ErrorCode.ValidationFailed, 'log_range_reversed', locale);
  }
  if (end - start >= LOG_RANGE_LIMIT_SECONDS) {
    throw localizedException(ErrorCode.ValidationFailed, 'log_range_too_long', locale);
  }
  return { start, end };
}
