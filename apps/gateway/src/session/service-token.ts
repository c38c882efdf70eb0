import { createSecretKey, type KeyObject } from 'node:crypto';
import { SESSION_LOOKUP } from '@tollgate/contracts';
import { SignJWT } from 'jose';

const TTL_SECONDS = 60;
/** Reused until this close to expiry: signing once per half minute instead of once per look-up. */
const RENEW_BEFORE_SECONDS = 30;

/** The gateway's proof to auth that a session look-up comes from it (see SESSION_LOOKUP). */
export class ServiceTokenSigner {
  private readonly key: KeyObject;
  private current?: { token: Promise<string>; expiresAt: number };

  constructor(
    secret: string,
    private readonly nowSeconds: () => number = () => Math.floor(Date.now() / 1000),
  ) {
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  token(): Promise<string> {
    const now = this.nowSeconds();
    if (!this.current || this.current.expiresAt - now <= RENEW_BEFORE_SECONDS) {
      const token = new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer(SESSION_LOOKUP.issuer)
        .setAudience(SESSION_LOOKUP.audience)
        .setIssuedAt(now)
        .setExpirationTime(now + TTL_SECONDS)
        .sign(this.key);
      this.current = { token, expiresAt: now + TTL_SECONDS };
    }
    return this.current.token;
  }
}
