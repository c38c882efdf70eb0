import { Body, Controller, Get, Headers, HttpCode, Post, Res } from '@nestjs/common';
import { loginRequestSchema, ok, type Envelope, type SessionUser } from '@tollgate/contracts';
import { Public, type Locale, RequestLocale } from '@tollgate/platform';
import type { FastifyReply } from 'fastify';
import { ClientIp, OverHttps } from '../http/request-meta.decorators';
import { message } from '../i18n/auth-messages';
import { parseRequest } from '../i18n/parse-request';
import { clearedSessionCookie, sessionCookie, sessionSecretFrom } from './session-cookie';
import { SessionsService } from './sessions.service';

@Controller('api/user')
export class SessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @Public()
  @Post('login')
  @HttpCode(200)
  async login(
    @Body() body: unknown,
    @Headers('cookie') cookies: string | undefined,
    @ClientIp() clientIp: string,
    @OverHttps() https: boolean,
    @RequestLocale() locale: Locale,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Envelope<SessionUser>> {
    const request = parseRequest(loginRequestSchema, body, locale, 'login_fields_required');
    const { user, session } = await this.sessions.login(
      request,
      clientIp,
      locale,
      sessionSecretFrom(cookies),
    );
    void reply.header('set-cookie', sessionCookie(session.secret, session.maxAgeSeconds, https));
    return ok(user, message('login_success', locale));
  }

  @Public()
  @Get('logout')
  async logout(
    @Headers('cookie') cookies: string | undefined,
    @OverHttps() https: boolean,
    @RequestLocale() locale: Locale,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Envelope<null>> {
    await this.sessions.logout(sessionSecretFrom(cookies));
    void reply.header('set-cookie', clearedSessionCookie(https));
    return ok(null, message('logout_success', locale));
  }
}
