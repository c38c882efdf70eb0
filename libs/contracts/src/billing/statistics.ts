import { z } from 'zod';

/** Moscow time is UTC+3 all year (SPEC §9): statistics days run 00:00–23:59:59 there. */
export const MOSCOW_UTC_OFFSET_SECONDS = 3 * 60 * 60;
/** The widest statistics query, in days. */
export const STATISTICS_MAX_DAYS = 366;

const blankAsUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);
/** A day as epoch seconds (any moment of it, Moscow time) or as YYYY-MM-DD. */
const dayBound = z.union([
  z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD or epoch seconds'),
  z.coerce.number().int().min(0).max(253_402_300_799),
]);

/** `GET /api/statistics/self`: days from start_date to end_date inclusive, optionally one token's. */
export const statisticsQuerySchema = z.object({
  start_date: z.preprocess(blankAsUndefined, dayBound.optional()),
  end_date: z.preprocess(blankAsUndefined, dayBound.optional()),
  token_id: z.preprocess(blankAsUndefined, z.coerce.number().int().positive().max(2_147_483_647).optional()),
});
export type StatisticsQuery = z.output<typeof statisticsQuerySchema>;

/** `GET /api/statistics/` (admin): every user's usage, or one user's. */
export const adminStatisticsQuerySchema = statisticsQuerySchema.extend({
  user_id: z.preprocess(blankAsUndefined, z.coerce.number().int().positive().max(2_147_483_647).optional()),
});
export type AdminStatisticsQuery = z.output<typeof adminStatisticsQuerySchema>;

/** Usage of one model on one Moscow day; the day's bounds are epoch seconds. */
export const dailyModelUsageSchema = z.object({
  date: z.string(),
  start_timestamp: z.number().int(),
  end_timestamp: z.number().int(),
  model_name: z.string(),
  requests: z.number().int(),
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  /**
   * Prompt tokens read from the prompt cache, and written to it for 5 minutes and for an hour: all
   * three are part of `prompt_tokens` and apart from each other (each priced apart, as in the log).
   * Writes are counted since migration 20270108 (and back-filled from the log it still held). The
   * defaults read an answer from a billing before them as no cache use.
   */
  cached_tokens: z.number().int().nonnegative().default(0),
  cache_write_5m_tokens: z.number().int().nonnegative().default(0),
  cache_write_1h_tokens: z.number().int().nonnegative().default(0),
  quota: z.number().int(),
});
export type DailyModelUsage = z.infer<typeof dailyModelUsageSchema>;

/** One window of `GET /api/statistics/overview`: the last `days` Moscow days, today included. */
export const overviewWindowSchema = z.object({
  days: z.number().int().positive(),
  /** Users with at least one request in the window. */
  active_users: z.number().int().nonnegative(),
  requests: z.number().int().nonnegative(),
  /** Requests the upstream failed (status upstream_error). */
  errors: z.number().int().nonnegative(),
});

/** `GET /api/statistics/overview` (admin): the platform at a glance. */
export const adminOverviewSchema = z.object({
  windows: z.array(overviewWindowSchema),
  /** The users charged most over the last 30 days, highest first. */
  top_users: z.array(
    z.object({
      user_id: z.number().int().positive(),
      username: z.string().nullable(),
      quota: z.number().int(),
      requests: z.number().int().nonnegative(),
    }),
  ),
  /** usage.recorded events billing has still to settle; null when the event bus cannot tell. */
  consumer_lag: z.number().int().nonnegative().nullable(),
});
export type AdminOverview = z.infer<typeof adminOverviewSchema>;
