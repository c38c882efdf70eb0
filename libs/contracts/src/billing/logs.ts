import { z } from 'zod';

/** new-api's log types: what a log line is about. */
export enum LogType {
  TopUp = 1,
  Consume = 2,
  Manage = 3,
  System = 4,
  Error = 5,
  Refund = 6,
}

/** User log page size (SPEC §9). */
export const LOG_PAGE_DEFAULT_SIZE = 20;
export const LOG_PAGE_MAX_SIZE = 100;
/** A log query's time range must be shorter than this (SPEC §5: "under 31 days"). */
export const LOG_RANGE_LIMIT_SECONDS = 31 * 24 * 60 * 60;
/** Without a start the range reaches this far back from its end (the web's default). */
export const LOG_DEFAULT_RANGE_SECONDS = 14 * 24 * 60 * 60;
/** One export per caller in this many seconds; the next one answers 429 (SPEC §8). */
export const LOG_EXPORT_COOLDOWN_SECONDS = 10;

/** new-api clients send empty strings for filters they leave blank. */
const blankAsUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);
const optional = <T extends z.ZodTypeAny>(schema: T) => z.preprocess(blankAsUndefined, schema.optional());
const epochSeconds = z.coerce.number().int().min(0).max(253_402_300_799);
const filterText = z.string().trim().max(128);

/** Filters of `GET /api/log/self` and its export; `type` 0 means every type. */
export const logFiltersSchema = z.object({
  type: optional(z.coerce.number().int().min(0).max(6)),
  start_timestamp: optional(epochSeconds),
  end_timestamp: optional(epochSeconds),
  model_name: optional(filterText),
  token_name: optional(filterText),
});
export type LogFilters = z.output<typeof logFiltersSchema>;

/** `GET /api/log/` and `GET /api/log/export` (admin): the user filters plus who and where. */
export const adminLogFiltersSchema = logFiltersSchema.extend({
  user_id: optional(z.coerce.number().int().positive().max(2_147_483_647)),
  username: optional(filterText),
  channel: optional(z.coerce.number().int().positive().max(2_147_483_647)),
  group: optional(filterText),
});
export type AdminLogFilters = z.output<typeof adminLogFiltersSchema>;

/**
 * One log line as new-api shows it. Consume and error lines come from settled requests; the others
 * from ledger entries (quota is then the signed change of balance). `channel` is shown to admins only.
 */
export const logItemSchema = z.object({
  /** "usage-<n>" or "ledger-<n>": the two sources number their rows independently. */
  id: z.string(),
  created_at: z.number().int(),
  type: z.nativeEnum(LogType),
  user_id: z.number().int(),
  username: z.string(),
  token_id: z.number().int().nullable(),
  token_name: z.string(),
  model_name: z.string(),
  quota: z.number().int(),
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  cached_tokens: z.number().int(),
  /**
   * Prompt tokens written to the prompt cache for 5 minutes and for an hour, apart from each other and
   * from `cached_tokens` (each charged at its own write price); 0 on other lines. Billing always sends
   * them; 0 when absent (an answer from a billing before them).
   */
  cache_write_5m_tokens: z.number().int().nonnegative().default(0),
  cache_write_1h_tokens: z.number().int().nonnegative().default(0),
  /** Seconds the request took (whole seconds, as new-api). */
  use_time: z.number().int(),
  is_stream: z.boolean(),
  group: z.string(),
  request_id: z.string(),
  content: z.string(),
  channel: z.number().int().nullable().optional(),
});
export type LogItem = z.infer<typeof logItemSchema>;

/** The currencies a log export can show money in: the web's display currencies. */
export const LOG_EXPORT_CURRENCIES = ['RUB', 'USD'] as const;
export type LogExportCurrency = (typeof LOG_EXPORT_CURRENCIES)[number];

/**
 * How an export writes its lines, beside the filters: money in `currency` (rubles by default) and
 * times in the IANA time zone `tz` (Moscow by default, or when the zone is unknown).
 */
export const logExportOptionsSchema = z.object({
  currency: optional(z.enum(LOG_EXPORT_CURRENCIES)),
  tz: optional(z.string().trim().max(64)),
});
export type LogExportOptions = z.output<typeof logExportOptionsSchema>;
