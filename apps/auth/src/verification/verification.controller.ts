import { Controller, Get, Query } from '@nestjs/common';
import { ok, verificationQuerySchema, type Envelope } from '@tollgate/contracts';
import { Public, type Locale, RequestLocale } from '@tollgate/platform';
import { ClientIp } from '../http/request-meta.decorators';
import { parseRequest } from '../i18n/parse-request';
import { VerificationService } from './verification.service';

@Controller('api/verification')
export class VerificationController {
  constructor(private readonly verification: VerificationService) {}

  @Public()
  @Get()
  async send(
    @Query() query: unknown,
    @ClientIp() clientIp: string,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<null>> {
    const { email } = parseRequest(verificationQuerySchema, query, locale, 'email_required');
    return ok(null, await this.verification.sendRegistrationCode(email, clientIp, locale));
  }
}
