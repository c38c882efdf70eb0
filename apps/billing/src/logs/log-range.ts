import {
  ErrorCode,
  LOG_DEFAULT_RANGE_SECONDS,
  LOG_RANGE_LIMIT_SECONDS,
  type LogFilters,
} from '@tollgate/contracts';
import { AppException } from '@tollgate/platform';

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
): LogRange {
  const end = filters.end_timestamp ?? nowSeconds;
  const start = filters.start_timestamp ?? end - LOG_DEFAULT_RANGE_SECONDS;
  if (start > end) {
    throw new AppException(ErrorCode.ValidationFailed, 'start_timestamp must not be after end_timestamp');
  }
  if (end - start >= LOG_RANGE_LIMIT_SECONDS) {
    throw new AppException(ErrorCode.ValidationFailed, 'The time range must be under 31 days');
  }
  return { start, end };
}
