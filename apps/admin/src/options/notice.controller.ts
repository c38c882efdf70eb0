import { Controller, Get, Query } from '@nestjs/common';
import { noticeQuerySchema, ok, type Envelope } from '@tollgate/contracts';
import { Public } from '@tollgate/platform';
import { OptionsService } from './options.service';

/**
 * GET /api/notice: the notice (Markdown text) every visitor sees; set as the `Notice` option.
 * `?lang=en` answers the `NoticeEn` option instead when it is set (new-api clients send no `lang`).
 */
@Controller('api/notice')
export class NoticeController {
  constructor(private readonly options: OptionsService) {}

  @Public()
  @Get()
  async get(@Query() query: unknown): Promise<Envelope<string>> {
    return ok(await this.options.notice(noticeQuerySchema.parse(query).lang));
  }
}
