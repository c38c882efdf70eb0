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

const CONFIGURED: Record<
  OAuthProvider,
  (config: AuthConfig) => {
    clientSecret?: string;
    authorizeUrl: string;
    tokenUrl: string;
    profileUrl: string;
  }
> = {
  github: (c) => ({
    clientSecret: c.GITHUB_CLIENT_SECRET,
    authorizeUrl: c.GITHUB_AUTHORIZE_URL,
    tokenUrl: c.GITHUB_TOKEN_URL,
    profileUrl: c.GITHUB_PROFILE_URL,
  }),
  google: (c) => ({
    clientSecret: c.GOOGLE_CLIENT_SECRET,
    authorizeUrl: c.GOOGLE_AUTHORIZE_URL,
    tokenUrl: c.GOOGLE_TOKEN_URL,
    profileUrl: c.GOOGLE_PROFILE_URL,
  }),
  discord: (c) => ({
    clientSecret: c.DISCORD_CLIENT_SECRET,
    authorizeUrl: c.DISCORD_AUTHORIZE_URL,
    tokenUrl: c.DISCORD_TOKEN_URL,
    profileUrl: c.DISCORD_PROFILE_URL,
  }),
};

/**
 * A provider's client and endpoints with `clientId` (the operator's or the configured one), or
 * null when the id or the secret (configuration only) is missing: the provider is off.
 */
export function oauthProviderSettings(
  config: AuthConfig,
  provider: OAuthProvider,
  clientId: string | undefined,
): OAuthProviderSettings | null {
  const { clientSecret, ...urls } = CONFIGURED[provider](config);
  if (!clientId || !clientSecret) return null;
  const redirectUri = new URL(
    `oauth/${provider}`,
    config.OAUTH_REDIRECT_BASE_URL.replace(/\/?$/, '/'),
  ).toString();
  return { clientId, clientSecret, ...urls, redirectUri };
}
