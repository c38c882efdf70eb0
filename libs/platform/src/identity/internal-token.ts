import { createSecretKey, type KeyObject } from 'node:crypto';
import { SignJWT, errors, jwtVerify } from 'jose';
import { identitySchema, type Identity } from './identity';

export const INTERNAL_IDENTITY_HEADER = 'x-tollgate-identity';

const ALGORITHM = 'HS256';
const ISSUER = 'tollgate-gateway';
const AUDIENCE = 'tollgate-services';
export const INTERNAL_TOKEN_TTL_SECONDS = 60;
/** Services and the gateway run on different hosts; allow a little clock drift. */
const CLOCK_TOLERANCE_SECONDS = 5;

/** Deriving a KeyObject costs more than the HMAC itself; a process holds very few secrets. */
const keys = new Map<string, KeyObject>();
const keyFor = (secret: string): KeyObject => {
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret, 'utf8'));
    keys.set(secret, key);
  }
  return key;
};

export class InvalidInternalTokenError extends Error {
  constructor(readonly reason: 'expired' | 'invalid') {
    super(reason === 'expired' ? 'Internal identity token expired' : 'Internal identity token is invalid');
    this.name = 'InvalidInternalTokenError';
  }
}

export interface SignInternalTokenOptions {
  ttlSeconds?: number;
  /** Seconds since the epoch; for tests and for callers with an injected clock. */
  now?: number;
}

export const signInternalToken = (
  identity: Identity,
  secret: string,
  {
    ttlSeconds = INTERNAL_TOKEN_TTL_SECONDS,
    now = Math.floor(Date.now() / 1000),
  }: SignInternalTokenOptions = {},
): Promise<string> => {
  const { userId, role, group, sessionId, via } = identitySchema.parse(identity);
  return new SignJWT({ role, group, sid: sessionId, via })
    .setProtectedHeader({ alg: ALGORITHM })
    .setSubject(String(userId))
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(now + ttlSeconds)
    .sign(keyFor(secret));
};

export interface VerifyInternalTokenOptions {
  /** Seconds since the epoch; for tests and for callers with an injected clock. */
  now?: number;
}

/** The identity the token carries; throws InvalidInternalTokenError when it is expired, forged or malformed. */
export const verifyInternalToken = async (
  token: string,
  secret: string,
  { now }: VerifyInternalTokenOptions = {},
): Promise<Identity> => {
  try {
    const { payload } = await jwtVerify(token, keyFor(secret), {
      algorithms: [ALGORITHM],
      issuer: ISSUER,
      audience: AUDIENCE,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ['sub', 'exp', 'iat'],
      ...(now === undefined ? {} : { currentDate: new Date(now * 1000) }),
    });
    const parsed = identitySchema.safeParse({
      userId: Number(payload.sub),
      role: payload['role'],
      group: payload['group'],
      sessionId: payload['sid'],
      via: payload['via'],
    });
    if (!parsed.success) throw new InvalidInternalTokenError('invalid');
    return parsed.data;
  } catch (error) {
    if (error instanceof errors.JWTExpired) throw new InvalidInternalTokenError('expired');
    if (error instanceof errors.JOSEError) throw new InvalidInternalTokenError('invalid');
    throw error;
  }
};
