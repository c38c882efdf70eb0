import { Controller, Get } from '@nestjs/common';
import { ok, type Envelope, type StatusPage } from '@tollgate/contracts';
import { Public } from '@tollgate/platform';
import { StatusPageService } from './status-page.service';

/** The public status page's data: no sign-in. */
@Controller('api/status/page')
export class StatusPageController {
  constructor(private readonly statusPage: StatusPageService) {}

  @Public()
  @Get()
  async get(): Promise<Envelope<StatusPage>> {
    return ok(await this.statusPage.page());
  }
}
