import { Readable } from 'node:stream';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type {
  AdminLogFilters,
  LogExportOptions,
  LogFilters,
  LogItem,
  LogType,
  Page,
} from '@tollgate/contracts';
import type { Locale } from '@tollgate/platform';
import { ExchangeRateService } from '../exchange-rate/exchange-rate.service';
import { ExportCooldown } from './export-cooldown';
import { CSV_BOM, csvLine } from './log-csv';
import { csvDialectOf, logCsvColumns, type LogCsvContext } from './log-csv-columns';
import { knownTimeZone } from './log-export-format';
import { LOG_EXPORT_SETTINGS, type LogExportSettings } from './log-export-settings';
import { logItemOf, type LogAudience } from './log-item';
import { logRangeOf } from './log-range';
import { cursorOf, LogsRepository, type LogCursor, type LogQuery } from './logs.repository';

const nowSeconds = () => Math.floor(Date.now() / 1000);

function logQueryOf(
  filters: LogFilters & Partial<AdminLogFilters>,
  userId: number | undefined,
  locale: Locale,
): LogQuery {
  return {
    range: logRangeOf(filters, nowSeconds(), locale),
    // new-api sends 0 for "every type".
    type: filters.type ? (filters.type as LogType) : undefined,
    userId,
    username: filters.username,
    modelName: filters.model_name,
    tokenName: filters.token_name,
    channel: filters.channel,
    group: filters.group,
  };
}

/** The usage and balance log: a user's own lines, or everyone's for admins; pages and CSV exports. */
@Injectable()
export class LogsService {
  private readonly logger = new Logger(LogsService.name);

  constructor(
    private readonly repository: LogsRepository,
    private readonly cooldown: ExportCooldown,
    private readonly rates: ExchangeRateService,
    @Inject(LOG_EXPORT_SETTINGS) private readonly settings: LogExportSettings,
  ) {}

  async ownPage(
    userId: number,
    filters: LogFilters,
    page: number,
    pageSize: number,
    locale: Locale,
  ): Promise<Page<LogItem>> {
    return this.page(logQueryOf(filters, userId, locale), page, pageSize, 'user', locale);
  }

  async adminPage(
    filters: AdminLogFilters,
    page: number,
    pageSize: number,
    locale: Locale,
  ): Promise<Page<LogItem>> {
    return this.page(logQueryOf(filters, filters.user_id, locale), page, pageSize, 'admin', locale);
  }

  async exportOwn(
    userId: number,
    filters: LogFilters,
    options: LogExportOptions,
    locale: Locale,
  ): Promise<Readable> {
    const query = logQueryOf(filters, userId, locale);
    await this.cooldown.claim(userId, locale);
    return this.csv(query, 'user', await this.csvContext(options, locale));
  }

  async exportForAdmin(
    adminId: number,
    filters: AdminLogFilters,
    options: LogExportOptions,
    locale: Locale,
  ): Promise<Readable> {
    const query = logQueryOf(filters, filters.user_id, locale);
    await this.cooldown.claim(adminId, locale);
    return this.csv(query, 'admin', await this.csvContext(options, locale));
  }

  /** Money at the rate in force, as the dashboard converts it; rubles and Moscow time by default. */
  private async csvContext(options: LogExportOptions, locale: Locale): Promise<LogCsvContext> {
    const currency = options.currency ?? 'RUB';
    return {
      locale,
      currency,
      usdRub: currency === 'RUB' ? (await this.rates.current()).usd_rub : '1',
      timeZone: knownTimeZone(options.tz),
    };
  }

  private async page(
    query: LogQuery,
    page: number,
    pageSize: number,
    audience: LogAudience,
    locale: Locale,
  ): Promise<Page<LogItem>> {
    const { total, rows } = await this.repository.page(query, page, pageSize);
    return { page, page_size: pageSize, total, items: rows.map((row) => logItemOf(row, audience, locale)) };
  }

  private csv(query: LogQuery, audience: LogAudience, context: LogCsvContext): Readable {
    const columns = logCsvColumns(audience, context);
    const dialect = csvDialectOf(context.locale);
    const repository = this.repository;
    const batchRows = this.settings.exportBatchRows;
    async function* lines(): AsyncGenerator<string> {
      yield (
        CSV_BOM +
        csvLine(
          columns.map((column) => column.header),
          dialect,
        )
      );
      let cursor: LogCursor | undefined;
      for (;;) {
        const rows = await repository.after(query, cursor, batchRows);
        if (rows.length > 0) {
          yield rows
            .map((row) => {
              const item = logItemOf(row, audience, context.locale);
              return csvLine(
                columns.map((column) => column.cell(item, row)),
                dialect,
              );
            })
            .join('');
        }
        if (rows.length < batchRows) return;
        cursor = cursorOf(rows[rows.length - 1]);
      }
    }
    const stream = Readable.from(lines());
    stream.on('error', (error) => this.logger.error(`log export failed: ${error.message}`));
    return stream;
  }
}
