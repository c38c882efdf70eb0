import { fastifyCookie } from '@fastify/cookie';
import { OAUTH_STATE_TTL_SECONDS } from '@tollgate/contracts';

/** Binds an OAuth state to the browser that asked for it. */
export const OAUTH_COOKIE_NAME = 'tollgate_oauth';

/** Set-Cookie with the browser nonce, scoped to the OAuth calls. */
export const oauthCookie = (nonce: string, secure: boolean): string =>
  fastifyCookie.serialize(OAUTH_COOKIE_NAME, nonce, {
    path: '/api/oauth',
    httpOnly: true,
    sameSite: 'lax',
    secure,
    maxAge: OAUTH_STATE_TTL_SECONDS,
  });

export function oauthNonceFrom(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  return fastifyCookie.parse(cookieHeader)[OAUTH_COOKIE_NAME] || undefined;
}
