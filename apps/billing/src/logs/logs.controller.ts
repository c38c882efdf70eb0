import type { Readable } from 'node:stream';
import { Controller, Get, Query, StreamableFile } from '@nestjs/common';
import {
  adminLogFiltersSchema,
  LOG_PAGE_DEFAULT_SIZE,
  LOG_PAGE_MAX_SIZE,
  logExportOptionsSchema,
  logFiltersSchema,
  ok,
  pageQuerySchema,
  type Envelope,
  type LogItem,
  type Page,
} from '@tollgate/contracts';
import { CurrentIdentity, RequestLocale, Role, Roles, type Identity, type Locale } from '@tollgate/platform';
import { LogsService } from './logs.service';

const pageQuery = pageQuerySchema(LOG_PAGE_DEFAULT_SIZE, LOG_PAGE_MAX_SIZE);

const csvFile = (stream: Readable, name: string) =>
  new StreamableFile(stream, {
    type: 'text/csv; charset=utf-8',
    disposition: `attachment; filename="${name}-${new Date().toISOString().slice(0, 10)}.csv"`,
  });

/** new-api's /api/log calls: the caller's own log, and everyone's for admins. */
@Controller('api/log')
export class LogsController {
  constructor(private readonly logs: LogsService) {}

  @Get('self')
  async own(
    @CurrentIdentity() identity: Identity,
    @Query() query: unknown,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<Page<LogItem>>> {
    const { page, pageSize } = pageQuery.parse(query);
    const filters = logFiltersSchema.parse(query);
    return ok(await this.logs.ownPage(identity.userId, filters, page, pageSize, locale));
  }

  @Get('self/export')
  async exportOwn(
    @CurrentIdentity() identity: Identity,
    @Query() query: unknown,
    @RequestLocale() locale: Locale,
  ): Promise<StreamableFile> {
    return csvFile(
      await this.logs.exportOwn(
        identity.userId,
        logFiltersSchema.parse(query),
        logExportOptionsSchema.parse(query),
        locale,
      ),
      'logs',
    );
  }

  @Roles(Role.Admin)
  @Get('export')
  async exportAll(
    @CurrentIdentity() identity: Identity,
    @Query() query: unknown,
    @RequestLocale() locale: Locale,
  ): Promise<StreamableFile> {
    return csvFile(
      await this.logs.exportForAdmin(
        identity.userId,
        adminLogFiltersSchema.parse(query),
        logExportOptionsSchema.parse(query),
        locale,
      ),
      'all-logs',
    );
  }

  @Roles(Role.Admin)
  @Get()
  async all(@Query() query: unknown, @RequestLocale() locale: Locale): Promise<Envelope<Page<LogItem>>> {
    const { page, pageSize } = pageQuery.parse(query);
    return ok(await this.logs.adminPage(adminLogFiltersSchema.parse(query), page, pageSize, locale));
  }
}
