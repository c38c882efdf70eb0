import { Controller, Get } from '@nestjs/common';
import { ok, type Envelope, type SystemStatus } from '@tollgate/contracts';
import { Public } from '@tollgate/platform';
import { StatusService } from './status.service';

@Controller('api/status')
export class StatusController {
  constructor(private readonly statusService: StatusService) {}

  @Public()
  @Get()
  async get(): Promise<Envelope<SystemStatus>> {
    return ok(await this.statusService.status());
  }
}
