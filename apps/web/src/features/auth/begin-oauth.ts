import type { SystemStatus } from '@tollgate/contracts';
import type { OAuthProvider } from '@tollgate/contracts';
import { fetchOAuthState } from './auth-api';
import { oauthAuthorizeUrl, storeOAuthState } from './oauth';

/** SPEC §4 OAuth: ask the server for a state, keep it for this provider, leave for the provider. */
export async function beginOAuth(
  provider: OAuthProvider,
  status: SystemStatus,
  redirect: (url: string) => void = (url) => window.location.assign(url),
): Promise<void> {
  const state = await fetchOAuthState();
  storeOAuthState(provider, state);
  redirect(oauthAuthorizeUrl(provider, status, state, window.location.origin));
}
