import { Injectable, type CanActivate, type ExecutionContext, type Type } from '@nestjs/common';
import { AuthGuard, type IAuthGuard } from '@nestjs/passport';
import { ErrorCode, oauthCallbackQuerySchema, type OAuthProvider } from '@tollgate/contracts';
import type { FastifyRequest } from 'fastify';
import { localeFromAcceptLanguage, type Locale } from '@tollgate/platform';
import { localizedException } from '../i18n/localized-exception';
import { parseRequest } from '../i18n/parse-request';
import { oauthNonceFrom } from './oauth-cookie';
import { PROVIDER_LABEL } from './oauth-settings';
import { OAuthStateStore, type OAuthState } from './oauth-state.store';
import { OAuthStrategies } from './oauth-strategies';

/** The checked state of the return call, for the handler. */
export const OAUTH_STATE_PROPERTY = 'tollgateOAuthState';
export type RequestWithOAuthState = FastifyRequest & { [OAUTH_STATE_PROPERTY]?: OAuthState; user?: unknown };

const localeOf = (request: FastifyRequest): Locale => {
  const header = request.headers['accept-language'];
  return localeFromAcceptLanguage(typeof header === 'string' ? header : undefined);
};

/**
 * GET /api/oauth/<provider>?code&state: first the one-time state (issued to this browser), then the
 * provider's passport strategy exchanges the code and reads the profile into `request.user`. A
 * provider that is off or refuses answers in the caller's language instead of passport's bare 401.
 */
export function OAuthGuard(provider: OAuthProvider): Type<CanActivate> {
  @Injectable()
  class ProviderGuard extends AuthGuard(provider) implements IAuthGuard {
    constructor(
      private readonly strategies: OAuthStrategies,
      private readonly states: OAuthStateStore,
    ) {
      super();
    }

    override async canActivate(context: ExecutionContext): Promise<boolean> {
      const request = context.switchToHttp().getRequest<RequestWithOAuthState>();
      const locale = localeOf(request);
      const params = { provider: PROVIDER_LABEL[provider] };
      if (!this.strategies.isEnabled(provider)) {
        throw localizedException(ErrorCode.Forbidden, 'oauth_not_configured', locale, params);
      }
      const query = parseRequest(oauthCallbackQuerySchema, request.query, locale, 'oauth_failed');
      const state = await this.states.consume(query.state, oauthNonceFrom(request.headers.cookie));
      if (!state) throw localizedException(ErrorCode.ValidationFailed, 'oauth_state_invalid', locale, params);
      request[OAUTH_STATE_PROPERTY] = state;
      return (await super.canActivate(context)) as boolean;
    }

    override getAuthenticateOptions(): { session: boolean } {
      return { session: false };
    }

    override handleRequest<TUser>(
      error: unknown,
      user: TUser,
      _info: unknown,
      context: ExecutionContext,
    ): TUser {
      if (error || !user) {
        const request = context.switchToHttp().getRequest<FastifyRequest>();
        throw localizedException(ErrorCode.ValidationFailed, 'oauth_failed', localeOf(request), {
          provider: PROVIDER_LABEL[provider],
        });
      }
      return user;
    }
  }
  return ProviderGuard;
}
