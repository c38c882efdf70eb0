import type { OAuthProvider } from '@tollgate/contracts';
import type { AuthConfig } from '../config';

/** One provider's client and endpoints, when it is configured. */
export interface OAuthProviderSettings {
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  profileUrl: string;
  /** The web client's return page, which hands the code to GET /api/oauth/<provider>. */
  redirectUri: string;
}

export const PROVIDER_LABEL: Record<OAuthProvider, string> = {
  github: 'GitHub',
  google: 'Google',
  discord: 'Discord',
};

/** Each provider's settings, or null when its client id or secret is missing (the provider is off). */
export function oauthSettings(config: AuthConfig): Record<OAuthProvider, OAuthProviderSettings | null> {
  const redirect = (provider: OAuthProvider) =>
    new URL(`oauth/${provider}`, config.OAUTH_REDIRECT_BASE_URL.replace(/\/?$/, '/')).toString();
  const settings = (
    provider: OAuthProvider,
    clientId: string | undefined,
    clientSecret: string | undefined,
    urls: { authorizeUrl: string; tokenUrl: string; profileUrl: string },
  ): OAuthProviderSettings | null =>
    clientId && clientSecret ? { clientId, clientSecret, ...urls, redirectUri: redirect(provider) } : null;
  return {
    github: settings('github', config.GITHUB_CLIENT_ID, config.GITHUB_CLIENT_SECRET, {
      authorizeUrl: config.GITHUB_AUTHORIZE_URL,
      tokenUrl: config.GITHUB_TOKEN_URL,
      profileUrl: config.GITHUB_PROFILE_URL,
    }),
    google: settings('google', config.GOOGLE_CLIENT_ID, config.GOOGLE_CLIENT_SECRET, {
      authorizeUrl: config.GOOGLE_AUTHORIZE_URL,
      tokenUrl: config.GOOGLE_TOKEN_URL,
      profileUrl: config.GOOGLE_PROFILE_URL,
    }),
    discord: settings('discord', config.DISCORD_CLIENT_ID, config.DISCORD_CLIENT_SECRET, {
      authorizeUrl: config.DISCORD_AUTHORIZE_URL,
      tokenUrl: config.DISCORD_TOKEN_URL,
      profileUrl: config.DISCORD_PROFILE_URL,
    }),
  };
}
