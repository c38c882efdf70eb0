import { Injectable, type OnModuleInit } from '@nestjs/common';
import { OAUTH_PROVIDERS, type OAuthProvider } from '@tollgate/contracts';
import { InjectServiceConfig } from '@tollgate/platform';
import type { OAuth2 } from 'oauth';
import passport from 'passport';
import { Strategy as DiscordStrategy } from 'passport-discord';
import { Strategy as GitHubStrategy } from 'passport-github2';
import { Strategy as GoogleStrategy } from 'passport-google-oauth20';
import type { Strategy as OAuth2Strategy, VerifyCallback } from 'passport-oauth2';
import type { AuthConfig } from '../config';
import { oauthSettings, type OAuthProviderSettings } from './oauth-settings';

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
 * Registers a passport strategy for each configured provider under its name (github, google,
 * discord), for @nestjs/passport's AuthGuard. The state is checked by auth before the strategy runs.
 */
@Injectable()
export class OAuthStrategies implements OnModuleInit {
  private readonly settings: Record<OAuthProvider, OAuthProviderSettings | null>;

  constructor(@InjectServiceConfig() config: AuthConfig) {
    this.settings = oauthSettings(config);
  }

  onModuleInit(): void {
    for (const provider of OAUTH_PROVIDERS) {
      const settings = this.settings[provider];
      if (settings) passport.use(provider, strategyFor(provider, settings));
      else passport.unuse(provider);
    }
  }

  isEnabled(provider: OAuthProvider): boolean {
    return this.settings[provider] !== null;
  }
}
