import { Controller, Delete, Get, HttpCode, Param, Query, Req, Res, UseGuards } from '@nestjs/common';
import {
  ErrorCode,
  isOAuthProvider,
  ok,
  oauthCallbackQuerySchema,
  oauthStateQuerySchema,
  type Envelope,
  type OAuthProvider,
  type SessionUser,
} from '@tollgate/contracts';
import {
  CurrentIdentity,
  identityOf,
  Public,
  type Identity,
  type Locale,
  RequestLocale,
} from '@tollgate/platform';
import type { FastifyReply } from 'fastify';
import { ClientIp, OverHttps } from '../http/request-meta.decorators';
import { message } from '../i18n/auth-messages';
import { localizedException } from '../i18n/localized-exception';
import { parseRequest } from '../i18n/parse-request';
import { sessionCookie } from '../sessions/session-cookie';
import { oauthCookie } from './oauth-cookie';
import { OAUTH_STATE_PROPERTY, OAuthGuard, type RequestWithOAuthState } from './oauth.guard';
import { PROVIDER_LABEL } from './oauth-settings';
import { OAuthService } from './oauth.service';

@Controller()
export class OAuthController {
  constructor(private readonly oauth: OAuthService) {}

  /** A one-time state for this browser (new-api answers the state itself as data). */
  @Public()
  @Get('api/oauth/state')
  async state(
    @Query() query: unknown,
    @ClientIp() clientIp: string,
    @OverHttps() https: boolean,
    @RequestLocale() locale: Locale,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Envelope<string>> {
    const request = parseRequest(oauthStateQuerySchema, query, locale, 'value_too_long');
    const issued = await this.oauth.issueState(request, clientIp, locale);
    void reply.header('set-cookie', oauthCookie(issued.browserNonce, https));
    return ok(issued.state);
  }

  @Public()
  @Get('api/oauth/github')
  @UseGuards(OAuthGuard('github'))
  github(
    @Req() request: RequestWithOAuthState,
    @OverHttps() https: boolean,
    @RequestLocale() locale: Locale,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.complete('github', request, https, locale, reply);
  }

  @Public()
  @Get('api/oauth/google')
  @UseGuards(OAuthGuard('google'))
  google(
    @Req() request: RequestWithOAuthState,
    @OverHttps() https: boolean,
    @RequestLocale() locale: Locale,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.complete('google', request, https, locale, reply);
  }

  @Public()
  @Get('api/oauth/discord')
  @UseGuards(OAuthGuard('discord'))
  discord(
    @Req() request: RequestWithOAuthState,
    @OverHttps() https: boolean,
    @RequestLocale() locale: Locale,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.complete('discord', request, https, locale, reply);
  }

  /** Unlinks a provider from the signed-in user (settings → linked accounts). */
  @Delete('api/user/oauth/:provider')
  @HttpCode(200)
  async unlink(
    @CurrentIdentity() identity: Identity,
    @Param('provider') provider: string,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<null>> {
    if (!isOAuthProvider(provider))
      throw localizedException(ErrorCode.NotFound, 'oauth_provider_unknown', locale);
    await this.oauth.unlink(identity.userId, provider, locale);
    return ok(null, message('oauth_unlinked', locale, { provider: PROVIDER_LABEL[provider] }));
  }

  /** Signs in (a new session cookie) or, for a signed-in caller, links the account. */
  private async complete(
    provider: OAuthProvider,
    request: RequestWithOAuthState,
    https: boolean,
    locale: Locale,
    reply: FastifyReply,
  ): Promise<Envelope<SessionUser>> {
    const query = oauthCallbackQuerySchema.parse(request.query);
    const consentedNow = query.agree_to_terms === true && query.agree_to_data_processing === true;
    const outcome = await this.oauth.complete(
      provider,
      request.user,
      request[OAUTH_STATE_PROPERTY] ?? { aff: null, consented: false },
      consentedNow,
      identityOf(request)?.userId,
      locale,
    );
    if (outcome.kind === 'signed_in') {
      void reply.header(
        'set-cookie',
        sessionCookie(outcome.session.secret, outcome.session.maxAgeSeconds, https),
      );
    }
    return ok(outcome.user, message('login_success', locale));
  }
}
