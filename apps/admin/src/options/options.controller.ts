import { Body, Controller, Get, Put } from '@nestjs/common';
import { ok, type Envelope } from '@tollgate/contracts';
import { CurrentIdentity, Role, Roles, type Identity } from '@tollgate/platform';
import { updateOptionRequestSchema, type OptionView } from './option-requests';
import { OptionsService } from './options.service';

/** new-api's /api/option/: root only (the gateway checks the role too). */
@Roles(Role.Root)
@Controller('api/option')
export class OptionsController {
  constructor(private readonly options: OptionsService) {}

  @Get()
  async list(): Promise<Envelope<OptionView[]>> {
    return ok(await this.options.list());
  }

  @Put()
  async set(@CurrentIdentity() identity: Identity, @Body() body: unknown): Promise<Envelope<OptionView>> {
    return ok(await this.options.set(identity, updateOptionRequestSchema.parse(body)), 'Option saved');
  }
}
