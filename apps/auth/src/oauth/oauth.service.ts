import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  ErrorCode,
  UserStatus,
  type OAuthProvider,
  type OAuthStateQuery,
  type SessionUser,
} from '@tollgate/contracts';
import { KV_STORE, type KvStore } from '@tollgate/kv';
import { InjectServiceConfig, type Locale } from '@tollgate/platform';
import type { AuthConfig } from '../config';
import { enforceRateLimits } from '../http/rate-limit';
import { localizedException, tooManyRequests } from '../i18n/localized-exception';
import { SessionStore, type StartedSession } from '../sessions/session.store';
import { sessionUserOf } from '../users/session-user';
import type { User } from '../users/user.entity';
import { PROVIDER_ID_FIELD, UsersRepository } from '../users/users.repository';
import { oauthIdentityOf, type OAuthIdentity } from './oauth-profile';
import { PROVIDER_LABEL } from './oauth-settings';
import { SettingsReadModel } from '../settings/settings-read-model';
import { OAuthStateStore, type IssuedState, type OAuthState } from './oauth-state.store';

const MINUTE_MS = 60_000;

export type OAuthOutcome =
  { kind: 'signed_in'; user: SessionUser; session: StartedSession } | { kind: 'linked'; user: SessionUser };

/**
 * OAuth sign-in: the provider account signs in its user, registers a new one (with the consents),
 * or, when someone is already signed in, is linked to them. Unlinking leaves a way to sign in.
 */
@Injectable()
export class OAuthService {
  constructor(
    private readonly users: UsersRepository,
    private readonly states: OAuthStateStore,
    private readonly sessions: SessionStore,
    @Inject(KV_STORE) private readonly kv: KvStore,
    @InjectServiceConfig() private readonly config: AuthConfig,
    private readonly settings: SettingsReadModel,
  ) {}

  async issueState(query: OAuthStateQuery, clientIp: string, locale: Locale): Promise<IssuedState> {
    await enforceRateLimits(
      this.kv,
      [{ key: `auth:oauth:ip:${clientIp}`, limit: this.config.AUTH_OAUTH_LIMIT_PER_IP, windowMs: MINUTE_MS }],
      (seconds) => tooManyRequests('oauth_rate_limited', locale, seconds),
    );
    return this.states.issue({
      aff: query.aff || null,
      consented: query.agree_to_terms === true && query.agree_to_data_processing === true,
    });
  }

  async complete(
    provider: OAuthProvider,
    profile: unknown,
    state: OAuthState,
    consentedNow: boolean,
    signedInUserId: number | undefined,
    locale: Locale,
  ): Promise<OAuthOutcome> {
    const params = { provider: PROVIDER_LABEL[provider] };
    const identity = oauthIdentityOf(profile);
    if (!identity) throw localizedException(ErrorCode.ValidationFailed, 'oauth_failed', locale, params);
    const owner = await this.users.findByProviderId(provider, identity.providerId);

    if (signedInUserId !== undefined) {
      if (owner && owner.id !== signedInUserId) {
        throw localizedException(ErrorCode.Conflict, 'oauth_already_linked', locale, params);
      }
      return {
        kind: 'linked',
        user: sessionUserOf(await this.link(signedInUserId, provider, identity, locale)),
      };
    }
    if (owner) {
      if (owner.status !== UserStatus.Enabled)
        throw localizedException(ErrorCode.Forbidden, 'user_disabled', locale);
      return { kind: 'signed_in', user: sessionUserOf(owner), session: await this.sessions.start(owner.id) };
    }
    if (!state.consented && !consentedNow) {
      throw localizedException(ErrorCode.ValidationFailed, 'oauth_consent_required', locale);
    }
    const user = await this.register(provider, identity, state, locale);
    return { kind: 'signed_in', user: sessionUserOf(user), session: await this.sessions.start(user.id) };
  }

  /** Unlinks a provider, unless it is the account's only way to sign in. */
  async unlink(userId: number, provider: OAuthProvider, locale: Locale): Promise<void> {
    const params = { provider: PROVIDER_LABEL[provider] };
    const user = await this.users.findById(userId);
    if (!user || user[PROVIDER_ID_FIELD[provider]] === null) {
      throw localizedException(ErrorCode.NotFound, 'oauth_not_linked', locale, params);
    }
    const otherLinks = Object.values(PROVIDER_ID_FIELD).filter(
      (field) => field !== PROVIDER_ID_FIELD[provider] && user[field] !== null,
    );
    if (!user.passwordHash && otherLinks.length === 0) {
      throw localizedException(ErrorCode.ValidationFailed, 'oauth_last_sign_in_method', locale);
    }
    await this.users.change(userId, (found) => (found[PROVIDER_ID_FIELD[provider]] = null), {
      publish: false,
    });
  }

  private async link(
    userId: number,
    provider: OAuthProvider,
    identity: OAuthIdentity,
    locale: Locale,
  ): Promise<User> {
    const outcome = await this.users.change(
      userId,
      (user) => (user[PROVIDER_ID_FIELD[provider]] = identity.providerId),
      { publish: false, taken: provider },
    );
    if (outcome.kind === 'changed') return outcome.user;
    if (outcome.kind === 'taken') {
      throw localizedException(ErrorCode.Conflict, 'oauth_already_linked', locale, {
        provider: PROVIDER_LABEL[provider],
      });
    }
    throw localizedException(ErrorCode.Unauthenticated, 'invalid_credentials', locale);
  }

  /** A new user named `<provider>_<random>`, shown under the provider account's name. */
  private async register(
    provider: OAuthProvider,
    identity: OAuthIdentity,
    state: OAuthState,
    locale: Locale,
  ): Promise<User> {
    if (!this.settings.registrationOpen())
      throw localizedException(ErrorCode.Forbidden, 'registration_closed', locale);
    const inviterId = state.aff ? await this.users.idOfAffCode(state.aff) : null;
    for (let attempt = 0; attempt < 3; attempt++) {
      const username = `${provider}_${randomBytes(4).toString('hex')}`;
      const outcome = await this.users.create({
        username,
        email: null,
        passwordHash: null,
        displayName: identity.name || username,
        inviterId,
        consentedAt: new Date(),
        linked: { provider, providerId: identity.providerId },
      });
      if (outcome.kind === 'created') return outcome.user;
      if (outcome.field !== 'username') {
        // The account was registered by a parallel return call a moment ago.
        throw localizedException(ErrorCode.Conflict, 'oauth_already_linked', locale, {
          provider: PROVIDER_LABEL[provider],
        });
      }
    }
    throw localizedException(ErrorCode.Conflict, 'username_taken', locale);
  }
}
