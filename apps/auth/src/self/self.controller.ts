import { Controller, Get } from '@nestjs/common';
import { ok, type Envelope, type SelfUser } from '@tollgate/contracts';
import { CurrentIdentity, type Identity } from '@tollgate/platform';
import { SelfService } from './self.service';

@Controller('api/user/self')
export class SelfController {
  constructor(private readonly selfService: SelfService) {}

  @Get()
  async get(@CurrentIdentity() identity: Identity): Promise<Envelope<SelfUser>> {
    return ok(await this.selfService.self(identity.userId));
  }
}
