import { Controller, Get } from '@nestjs/common';
import { ok, type Envelope } from '@tollgate/contracts';
import { CurrentIdentity, type Identity, type Locale, RequestLocale } from '@tollgate/platform';
import { AccessTokensService } from './access-tokens.service';

@Controller('api/user/token')
export class AccessTokensController {
  constructor(private readonly accessTokens: AccessTokensService) {}

  /** A new personal access token (new-api answers the token itself as data); the previous one stops working. */
  @Get()
  async issue(
    @CurrentIdentity() identity: Identity,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<string>> {
    return ok(await this.accessTokens.issue(identity.userId, locale));
  }
}
