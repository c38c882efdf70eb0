import { fastifyCookie } from '@fastify/cookie';
import { SESSION_COOKIE_NAME } from '@tollgate/contracts';

const ATTRIBUTES = { path: '/', httpOnly: true, sameSite: 'lax' } as const;

/** Set-Cookie for a new session; `Secure` when the client came over TLS. */
export const sessionCookie = (secret: string, maxAgeSeconds: number, secure: boolean): string =>
  fastifyCookie.serialize(SESSION_COOKIE_NAME, secret, { ...ATTRIBUTES, secure, maxAge: maxAgeSeconds });

/** Set-Cookie that makes the browser forget the session. */
export const clearedSessionCookie = (secure: boolean): string =>
  fastifyCookie.serialize(SESSION_COOKIE_NAME, '', { ...ATTRIBUTES, secure, maxAge: 0 });

/** The session cookie's value from a Cookie header, if any. */
export function sessionSecretFrom(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  const value = fastifyCookie.parse(cookieHeader)[SESSION_COOKIE_NAME];
  return value ? value : undefined;
}
