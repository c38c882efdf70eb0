import type { SystemStatus } from '@tollgate/contracts';
import type { OAuthProvider } from '@tollgate/contracts';
import { ROUTES } from '../../lib/routes';
import { STORAGE_KEYS } from '../../lib/local-storage-keys';

export function isOAuthEnabled(status: SystemStatus, provider: OAuthProvider): boolean {
  return status[`${provider}_oauth`];
}

export function oauthClientId(status: SystemStatus, provider: OAuthProvider): string {
  return status[`${provider}_client_id`];
}

export function storeOAuthState(
  provider: OAuthProvider,
  state: string,
  storage: Storage = localStorage,
): void {
  storage.setItem(STORAGE_KEYS.oauthState(provider), state);
}

export function readOAuthState(provider: OAuthProvider, storage: Storage = localStorage): string | null {
  return storage.getItem(STORAGE_KEYS.oauthState(provider));
}

export function clearOAuthState(provider: OAuthProvider, storage: Storage = localStorage): void {
  storage.removeItem(STORAGE_KEYS.oauthState(provider));
}

/** Where the provider sends the user back: this app's /oauth/<provider> page. */
export function oauthReturnUrl(origin: string, provider: OAuthProvider): string {
  return `${origin}${ROUTES.oauthReturn(provider)}`;
}

/** The provider's consent page for our client id and the state the server issued. */
export function oauthAuthorizeUrl(
  provider: OAuthProvider,
  status: SystemStatus,
  state: string,
  origin: string,
): string {
  const clientId = oauthClientId(status, provider);
  switch (provider) {
    case 'github':
      return `https://github.com/login/oauth/authorize?${new URLSearchParams({
        client_id: clientId,
        state,
        scope: 'user:email',
      })}`;
    case 'google':
      return `https://accounts.google.com/o/oauth2/v2/auth?${new URLSearchParams({
        client_id: clientId,
        redirect_uri: oauthReturnUrl(origin, provider),
        response_type: 'code',
        scope: 'openid email profile',
        state,
      })}`;
    case 'discord':
      return `https://discord.com/oauth2/authorize?${new URLSearchParams({
        client_id: clientId,
        redirect_uri: status.discord_redirect_uri || oauthReturnUrl(origin, provider),
        response_type: 'code',
        scope: 'identify email',
        state,
      })}`;
  }
}
