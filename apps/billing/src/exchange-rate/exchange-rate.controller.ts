import { Body, Controller, Get, Put } from '@nestjs/common';
import { exchangeRateOverrideSchema, ok, type Envelope, type ExchangeRate } from '@tollgate/contracts';
import { CurrentIdentity, Public, Role, Roles, type Identity } from '@tollgate/platform';
import { ExchangeRateService } from './exchange-rate.service';

@Controller('api/exchange-rate')
export class ExchangeRateController {
  constructor(private readonly rates: ExchangeRateService) {}

  @Public()
  @Get()
  async current(): Promise<Envelope<ExchangeRate>> {
    return ok(await this.rates.current());
  }

  @Roles(Role.Admin)
  @Put()
  async override(
    @Body() body: unknown,
    @CurrentIdentity() caller: Identity,
  ): Promise<Envelope<ExchangeRate>> {
    const { usd_rub } = exchangeRateOverrideSchema.parse(body);
    return ok(await this.rates.setOverride(usd_rub, caller));
  }
}
