import { Controller, Get } from '@nestjs/common';
import { ok, type Envelope } from '@tollgate/contracts';
import { Public } from '@tollgate/platform';
import { OptionsService } from './options.service';

/** GET /api/notice: the notice (Markdown text) every visitor sees; set as the `Notice` option. */
@Controller('api/notice')
export class NoticeController {
  constructor(private readonly options: OptionsService) {}

  @Public()
  @Get()
  async get(): Promise<Envelope<string>> {
    return ok(await this.options.notice());
  }
}
