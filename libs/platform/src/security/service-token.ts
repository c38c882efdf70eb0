import { createSecretKey, type KeyObject } from 'node:crypto';
import { SERVICE_TOKEN_ISSUER } from '@tollgate/contracts';
import { SignJWT, errors, jwtVerify } from 'jose';
import { InvalidInternalTokenError } from '../identity/internal-token';

/** The header a service proves itself with when it calls another service's /internal/ route. */
export const SERVICE_TOKEN_HEADER = 'x-tollgate-service-token';

const ALGORITHM = 'HS256';
const TTL_SECONDS = 60;
const RENEW_BEFORE_SECONDS = 15;
const CLOCK_TOLERANCE_SECONDS = 5;

const keyOf = (secret: string): KeyObject => createSecretKey(Buffer.from(secret, 'utf8'));

/**
 * Signs short-lived tokens for one audience (one internal call). Unlike an identity token it names no
 * user, so a leaked one lets nobody act as anyone; it is reused until shortly before it expires.
 */
export class ServiceTokenSigner {
  private readonly key: KeyObject;
  private current?: { token: Promise<string>; expiresAt: number };

  constructor(
    secret: string,
    private readonly audience: string,
    private readonly nowSeconds: () => number = () => Math.floor(Date.now() / 1000),
  ) {
    this.key = keyOf(secret);
  }

  token(): Promise<string> {
    const now = this.nowSeconds();
    if (!this.current || this.current.expiresAt - now <= RENEW_BEFORE_SECONDS) {
      const token = new SignJWT({})
        .setProtectedHeader({ alg: ALGORITHM })
        .setIssuer(SERVICE_TOKEN_ISSUER)
        .setAudience(this.audience)
        .setIssuedAt(now)
        .setExpirationTime(now + TTL_SECONDS)
        .sign(this.key);
      this.current = { token, expiresAt: now + TTL_SECONDS };
    }
    return this.current.token;
  }
}

/** Resolves when `token` was signed with `secret` for `audience` and is still valid; throws InvalidInternalTokenError otherwise. */
export async function verifyServiceToken(token: string, secret: string, audience: string): Promise<void> {
  try {
    await jwtVerify(token, keyOf(secret), {
      algorithms: [ALGORITHM],
      issuer: SERVICE_TOKEN_ISSUER,
      audience,
      requiredClaims: ['exp', 'iat'],
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
    });
  } catch (error) {
    throw new InvalidInternalTokenError(error instanceof errors.JWTExpired ? 'expired' : 'invalid');
  }
}
