import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ok, passwordResetRequestSchema, resetPasswordQuerySchema, type Envelope } from '@tollgate/contracts';
import { Public, type Locale, RequestLocale } from '@tollgate/platform';
import { ClientIp } from '../http/request-meta.decorators';
import { message } from '../i18n/auth-messages';
import { parseRequest } from '../i18n/parse-request';
import { PasswordResetService } from './password-reset.service';

@Controller('api')
export class PasswordResetController {
  constructor(private readonly reset: PasswordResetService) {}

  @Public()
  @Get('reset_password')
  async sendCode(
    @Query() query: unknown,
    @ClientIp() clientIp: string,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<null>> {
    const { email } = parseRequest(resetPasswordQuerySchema, query, locale, 'email_required');
    return ok(null, await this.reset.sendCode(email, clientIp, locale));
  }

  @Public()
  @Post('user/reset')
  @HttpCode(200)
  async resetPassword(@Body() body: unknown, @RequestLocale() locale: Locale): Promise<Envelope<null>> {
    const request = parseRequest(passwordResetRequestSchema, body, locale, 'reset_fields_required');
    await this.reset.reset(request, locale);
    return ok(null, message('password_updated', locale));
  }
}
