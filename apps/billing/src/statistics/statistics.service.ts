import { Injectable } from '@nestjs/common';
import {
  ErrorCode,
  STATISTICS_MAX_DAYS,
  type DailyModelUsage,
  type StatisticsQuery,
} from '@tollgate/contracts';
import { AppException } from '@tollgate/platform';
import { dayOf, daysBefore, daysInRange, moscowDay, moscowDayBounds } from './moscow-day';
import { StatisticsRepository } from './statistics.repository';

/** Without a start date the statistics cover this many days up to the end date. */
const DEFAULT_DAYS = 7;

export interface DayRange {
  firstDay: string;
  lastDay: string;
}

/** The Moscow days a query asks for; defaults end today and start DEFAULT_DAYS − 1 days earlier. */
export function dayRangeOf(
  query: Pick<StatisticsQuery, 'start_date' | 'end_date'>,
  nowSeconds: number,
): DayRange {
  let lastDay: string;
  let firstDay: string;
  try {
    lastDay = query.end_date === undefined ? moscowDay(nowSeconds) : dayOf(query.end_date);
    firstDay =
      query.start_date === undefined ? daysBefore(lastDay, DEFAULT_DAYS - 1) : dayOf(query.start_date);
  } catch (error) {
    throw new AppException(ErrorCode.ValidationFailed, (error as Error).message);
  }
  if (firstDay > lastDay) {
    throw new AppException(ErrorCode.ValidationFailed, 'start_date must not be after end_date');
  }
  if (daysInRange(firstDay, lastDay) > STATISTICS_MAX_DAYS) {
    throw new AppException(
      ErrorCode.ValidationFailed,
      `statistics cover at most ${STATISTICS_MAX_DAYS} days per query`,
    );
  }
  return { firstDay, lastDay };
}

/** Usage per Moscow day and model from the rollups the usage consumer keeps. */
@Injectable()
export class StatisticsService {
  constructor(private readonly repository: StatisticsRepository) {}

  async daily(
    query: Pick<StatisticsQuery, 'start_date' | 'end_date'>,
    scope: { userId?: number; tokenId?: number },
  ): Promise<DailyModelUsage[]> {
    const range = dayRangeOf(query, Math.floor(Date.now() / 1000));
    const rows = await this.repository.daily({ ...range, ...scope });
    return rows.map((row) => {
      const { start, end } = moscowDayBounds(row.day);
      return {
        date: row.day,
        start_timestamp: start,
        end_timestamp: end,
        model_name: row.model,
        requests: row.requests,
        prompt_tokens: row.promptTokens,
        completion_tokens: row.completionTokens,
        cached_tokens: row.cachedTokens,
        cache_write_5m_tokens: row.cacheWrite5mTokens,
        cache_write_1h_tokens: row.cacheWrite1hTokens,
        quota: row.quota,
      };
    });
  }
}
