import {
  LOG_PAGE_DEFAULT_SIZE,
  dailyModelUsageSchema,
  logItemSchema,
  pageSchema,
  type DailyModelUsage,
  type LogExportCurrency,
  type LogItem,
} from '@tollgate/contracts';
import { z } from 'zod';
import { api } from '../../api/client';

/** SPEC §9: a user's log is paged 20 at a time. */
export const LOG_PAGE_SIZE = LOG_PAGE_DEFAULT_SIZE;

export type { DailyModelUsage, LogItem };

const logPageSchema = pageSchema(logItemSchema);
export type LogPage = z.infer<typeof logPageSchema>;

export interface LogFilters {
  startTimestamp: number;
  endTimestamp: number;
  modelName: string;
  tokenName: string;
}

function logQuery(filters: LogFilters) {
  return {
    start_timestamp: filters.startTimestamp,
    end_timestamp: filters.endTimestamp,
    model_name: filters.modelName || undefined,
    token_name: filters.tokenName || undefined,
  };
}

/** `GET /api/log/self`: one page of the caller's log lines in the range. */
export async function fetchLogs(filters: LogFilters, page: number): Promise<LogPage> {
  const data = await api.data<unknown>('GET', '/log/self', {
    query: { ...logQuery(filters), p: page, page_size: LOG_PAGE_SIZE },
  });
  return logPageSchema.parse(data);
}

/** How the export writes money and times: as this screen shows them. */
export interface LogExportFormat {
  currency: LogExportCurrency;
  /** The browser's IANA time zone. */
  timeZone: string;
}

/**
 * `GET /api/log/self/export`: the same filters, answered as a CSV file with headers in the
 * interface language (Accept-Language), money in `currency` and times in `timeZone`.
 */
export function exportLogs(filters: LogFilters, format: LogExportFormat): Promise<Blob> {
  return api.file('/log/self/export', {
    query: { ...logQuery(filters), currency: format.currency, tz: format.timeZone },
  });
}

/** `GET /api/statistics/self`: usage per Moscow day and model (SPEC §9 day bounds as epoch seconds). */
export async function fetchStatistics(startSeconds: number, endSeconds: number): Promise<DailyModelUsage[]> {
  const data = await api.data<unknown>('GET', '/statistics/self', {
    query: { start_date: startSeconds, end_date: endSeconds },
  });
  return z.array(dailyModelUsageSchema).parse(data);
}
