import { Controller, Get } from '@nestjs/common';
import { ok, type Envelope } from '@tollgate/contracts';
import { CurrentIdentity, RequestLocale, type Identity, type Locale } from '@tollgate/platform';
import { AffiliateService } from './affiliate.service';

@Controller('api/user/aff')
export class AffiliateController {
  constructor(private readonly affiliate: AffiliateService) {}

  /** new-api answers the code itself as data. */
  @Get()
  async code(
    @CurrentIdentity() identity: Identity,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<string>> {
    return ok(await this.affiliate.codeOf(identity.userId, locale));
  }
}
