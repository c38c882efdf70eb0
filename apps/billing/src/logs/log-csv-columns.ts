import type { LogExportCurrency, LogItem } from '@tollgate/contracts';
import type { Locale } from '@tollgate/platform';
import { message, type BillingMessageKey } from '../i18n/messages';
import { COMMA_CSV, SEMICOLON_CSV, type CsvCell, type CsvDialect } from './log-csv';
import { isoWithOffset, quotaAsAmount } from './log-export-format';
import type { LogAudience } from './log-item';
import { USAGE_LOG_TYPES } from './log-type';
import type { LogRow } from './logs.repository';

/** What an export's cells depend on besides the line: the caller's language, currency and zone. */
export interface LogCsvContext {
  locale: Locale;
  currency: LogExportCurrency;
  /** Rubles per dollar in force (the rate the dashboard converts with). */
  usdRub: string;
  timeZone: string;
}

export interface LogCsvColumn {
  header: string;
  cell: (item: LogItem, row: LogRow) => CsvCell;
}

const CURRENCY_SIGN: Record<LogExportCurrency, string> = { RUB: '₽', USD: '$' };

export function csvDialectOf(locale: Locale): CsvDialect {
  return locale === 'ru' ? SEMICOLON_CSV : COMMA_CSV;
}

/**
 * The export's columns, headed in the caller's language: when, what, which key and model, the
 * amount in the caller's currency, tokens (cache writes for 5 minutes and for an hour apart, as they
 * are priced), response time, and the line's ids; admins also see whose line it is and which channel
 * served it.
 */
export function logCsvColumns(audience: LogAudience, context: LogCsvContext): readonly LogCsvColumn[] {
  const text = (key: BillingMessageKey, params?: Record<string, string>) =>
    message(key, context.locale, params);
  const column = (key: BillingMessageKey, cell: LogCsvColumn['cell']): LogCsvColumn => ({
    header: text(key),
    cell,
  });
  // A balance change (top-up, refund, ...) has no tokens, time or streaming: those cells stay empty.
  const requestColumn = (key: BillingMessageKey, cell: LogCsvColumn['cell']): LogCsvColumn =>
    column(key, (item, row) => (USAGE_LOG_TYPES.has(item.type) ? cell(item, row) : null));
  const columns: LogCsvColumn[] = [
    column('log_csv_time', (item) => isoWithOffset(item.created_at, context.timeZone)),
    column('log_csv_type', (item) => text(`log_type_${item.type}`)),
    ...(audience === 'admin' ? [column('log_csv_user_id', (item) => item.user_id)] : []),
    column('log_csv_username', (item) => item.username),
    column('log_csv_token', (item) => item.token_name),
    column('log_csv_model', (item) => item.model_name),
    {
      header: text('log_csv_amount', { currency: CURRENCY_SIGN[context.currency] }),
      cell: (item) => ({ decimal: quotaAsAmount(item.quota, context.currency, context.usdRub) }),
    },
    requestColumn('log_csv_prompt_tokens', (item) => item.prompt_tokens),
    requestColumn('log_csv_completion_tokens', (item) => item.completion_tokens),
    requestColumn('log_csv_cached_tokens', (item) => item.cached_tokens),
    requestColumn('log_csv_cache_write_5m_tokens', (item) => item.cache_write_5m_tokens),
    requestColumn('log_csv_cache_write_1h_tokens', (item) => item.cache_write_1h_tokens),
    requestColumn('log_csv_duration', (_item, row) => ({
      decimal: (Number(row.latency_ms) / 1000).toFixed(3),
    })),
    requestColumn('log_csv_stream', (item) => text(item.is_stream ? 'log_csv_yes' : 'log_csv_no')),
    column('log_csv_group', (item) => item.group),
    column('log_csv_request_id', (item) => item.request_id),
    // A balance change's note in the reader's language (ledgerNoteText); requests have none.
    column('log_csv_note', (item) => item.content),
  ];
  if (audience === 'admin') columns.push(column('log_csv_channel', (item) => item.channel ?? null));
  return columns;
}
