import { Body, Controller, HttpCode, Post, Res } from '@nestjs/common';
import { ok, registerRequestSchema, type Envelope, type SessionUser } from '@tollgate/contracts';
import { Public, type Locale, RequestLocale } from '@tollgate/platform';
import type { FastifyReply } from 'fastify';
import { OverHttps } from '../http/request-meta.decorators';
import { message } from '../i18n/auth-messages';
import { parseRequest } from '../i18n/parse-request';
import { sessionCookie } from '../sessions/session-cookie';
import { RegistrationService } from './registration.service';

@Controller('api/user/register')
export class RegistrationController {
  constructor(private readonly registration: RegistrationService) {}

  @Public()
  @Post()
  @HttpCode(200)
  async register(
    @Body() body: unknown,
    @OverHttps() https: boolean,
    @RequestLocale() locale: Locale,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Envelope<SessionUser>> {
    const request = parseRequest(registerRequestSchema, body, locale, 'register_fields_required');
    const { user, session } = await this.registration.register(request, locale);
    void reply.header('set-cookie', sessionCookie(session.secret, session.maxAgeSeconds, https));
    return ok(user, message('register_success', locale));
  }
}
