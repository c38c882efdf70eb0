import { z } from 'zod';
import { api } from '../../api/client';

/** SPEC §9: a user's log is paged 20 at a time. */
export const LOG_PAGE_SIZE = 20;

/** new-api's log types: 1 top-up, 2 consume, 3 manage, 4 system, 5 error, 6 refund. */
export const LOG_TYPES = { topup: 1, consume: 2, manage: 3, system: 4, error: 5, refund: 6 } as const;

const count = z.number().int().nonnegative().catch(0);

/** One row of `GET /api/log/self` (new-api's fields; the ones the screen shows). */
export const logItemSchema = z.object({
  id: z.number().int(),
  created_at: z.number().int(),
  type: z.number().int(),
  model_name: z.string().catch(''),
  token_name: z.string().catch(''),
  quota: z.number().int().catch(0),
  prompt_tokens: count,
  completion_tokens: count,
  use_time: z.number().nonnegative().optional(),
  is_stream: z.boolean().optional(),
});
export type LogItem = z.infer<typeof logItemSchema>;

const logPageSchema = z.object({
  items: z.array(logItemSchema),
  total: z.number().int().nonnegative(),
  page: z.number().int().positive(),
  page_size: z.number().int().positive(),
});
export type LogPage = z.infer<typeof logPageSchema>;

export interface LogFilters {
  startTimestamp: number;
  endTimestamp: number;
  modelName: string;
  tokenName: string;
  type?: number;
}

function logQuery(filters: LogFilters) {
  return {
    start_timestamp: filters.startTimestamp,
    end_timestamp: filters.endTimestamp,
    model_name: filters.modelName || undefined,
    token_name: filters.tokenName || undefined,
    type: filters.type,
  };
}

export async function fetchLogs(filters: LogFilters, page: number): Promise<LogPage> {
  const data = await api.data<unknown>('GET', '/log/self', {
    query: { ...logQuery(filters), p: page, page_size: LOG_PAGE_SIZE },
  });
  return logPageSchema.parse(data);
}

/** `GET /api/log/self/export`: the same filters, answered as a CSV file. */
export function exportLogs(filters: LogFilters): Promise<Blob> {
  return api.file('/log/self/export', { query: logQuery(filters) });
}

/**
 * One row of `GET /api/statistics/self`: usage of one model on one Moscow day. The day comes as
 * epoch seconds (its 00:00 Moscow time) or as 'YYYY-MM-DD'.
 */
export const statisticsRowSchema = z.object({
  day: z.union([z.number().int(), z.string()]),
  model_name: z.string().catch(''),
  requests: count,
  prompt_tokens: count,
  completion_tokens: count,
  quota: z.number().int().catch(0),
});
export type StatisticsRow = z.infer<typeof statisticsRowSchema>;

const statisticsSchema = z.union([
  z.array(statisticsRowSchema),
  z.object({ items: z.array(statisticsRowSchema) }).transform((page) => page.items),
]);

export async function fetchStatistics(startSeconds: number, endSeconds: number): Promise<StatisticsRow[]> {
  const data = await api.data<unknown>('GET', '/statistics/self', {
    query: { start_date: startSeconds, end_date: endSeconds },
  });
  return statisticsSchema.parse(data);
}
