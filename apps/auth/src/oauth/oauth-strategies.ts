import { Injectable } from '@nestjs/common';
import type { OAuthProvider } from '@tollgate/contracts';
import { InjectServiceConfig } from '@tollgate/platform';
import type { OAuth2 } from 'oauth';
import passport from 'passport';
import { Strategy as DiscordStrategy } from 'passport-discord';
import { Strategy as GitHubStrategy } from 'passport-github2';
import { Strategy as GoogleStrategy } from 'passport-google-oauth20';
import type { Strategy as OAuth2Strategy, VerifyCallback } from 'passport-oauth2';
import type { AuthConfig } from '../config';
import { SettingsReadModel } from '../settings/settings-read-model';
import { oauthProviderSettings, type OAuthProviderSettings } from './oauth-settings';

/** The strategies hand the provider's profile on as the "user"; auth decides what it means. */
const keepProfile = (_accessToken: string, _refreshToken: string, profile: unknown, done: VerifyCallback) =>
  done(null, profile as Express.User);

function strategyFor(provider: OAuthProvider, settings: OAuthProviderSettings): OAuth2Strategy {
  const common = {
    clientID: settings.clientId,
    clientSecret: settings.clientSecret,
    authorizationURL: settings.authorizeUrl,
    tokenURL: settings.tokenUrl,
    callbackURL: settings.redirectUri,
  };
  switch (provider) {
    case 'github':
      return new GitHubStrategy({ ...common, userProfileURL: settings.profileUrl, scope: [] }, keepProfile);
    case 'google':
      return new GoogleStrategy(
        { ...common, userProfileURL: settings.profileUrl, scope: ['profile'] },
        keepProfile,
      );
    case 'discord':
      return withProfileUrl(
        new DiscordStrategy({ ...common, scope: ['identify'] }, keepProfile),
        settings.profileUrl,
      );
  }
}

/** passport-discord reads the profile from a fixed address; this reads it from the configured one. */
function withProfileUrl(strategy: DiscordStrategy, profileUrl: string): OAuth2Strategy {
  const oauth2 = (strategy as unknown as { _oauth2: OAuth2 })._oauth2;
  strategy.userProfile = (accessToken, done) => {
    oauth2.get(profileUrl, accessToken, (error, body) => {
      if (error) return done(new Error('Failed to fetch the user profile'));
      try {
        done(null, { ...(JSON.parse(String(body)) as object), provider: 'discord' });
      } catch {
        done(new Error('Failed to parse the user profile'));
      }
    });
  };
  return strategy;
}

/**
 * Registers a passport strategy for each provider that is on (configured, and not switched off by
 * an operator) under its name (github, google, discord), for @nestjs/passport's AuthGuard. The
 * operators' client id is read at each sign-in: a changed id re-registers the strategy. The state
 * is checked by auth before the strategy runs.
 */
@Injectable()
export class OAuthStrategies {
  /** The client id each registered strategy was built with. */
  private readonly registered = new Map<OAuthProvider, string>();

  constructor(
    @InjectServiceConfig() private readonly config: AuthConfig,
    private readonly settings: SettingsReadModel,
  ) {}

  /** Whether `provider` may be used now; when it may, its strategy is registered with the current client id. */
  isEnabled(provider: OAuthProvider): boolean {
    const current = this.settings.oauthSwitchedOn(provider)
      ? oauthProviderSettings(this.config, provider, this.settings.oauthClientId(provider))
      : null;
    if (!current) {
      if (this.registered.delete(provider)) passport.unuse(provider);
      return false;
    }
    if (this.registered.get(provider) !== current.clientId) {
      passport.use(provider, strategyFor(provider, current));
      this.registered.set(provider, current.clientId);
    }
    return true;
  }
}
