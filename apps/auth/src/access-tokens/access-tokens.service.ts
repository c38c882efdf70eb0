import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode, UserStatus, type SessionIdentity } from '@tollgate/contracts';
import { KV_STORE, type KvStore } from '@tollgate/kv';
import { accessException, type Locale } from '@tollgate/platform';
import { enforceRateLimits } from '../http/rate-limit';
import { tooManyRequests } from '../i18n/localized-exception';
import { UsersRepository } from '../users/users.repository';
import { accessTokenFromAuthorization, generateAccessToken, hashAccessToken } from './access-token-secret';

const TOKENS_PER_MINUTE = 10;
const MINUTE_MS = 60_000;

/**
 * Personal access tokens (GET /api/user/token): one per user, replaced on every call, usable as
 * `Authorization` on /api by scripts. Only the hash is stored, so a token is shown exactly once.
 */
@Injectable()
export class AccessTokensService {
  constructor(
    private readonly users: UsersRepository,
    @Inject(KV_STORE) private readonly kv: KvStore,
  ) {}

  async issue(userId: number, locale: Locale): Promise<string> {
    await enforceRateLimits(
      this.kv,
      [{ key: `auth:access-token:user:${userId}`, limit: TOKENS_PER_MINUTE, windowMs: MINUTE_MS }],
      (seconds) => tooManyRequests('access_token_rate_limited', locale, seconds),
    );
    const token = generateAccessToken();
    const outcome = await this.users.change(
      userId,
      (user) => {
        user.accessTokenHash = hashAccessToken(token);
      },
      { publish: false, taken: 'access_token' },
    );
    if (outcome.kind !== 'changed')
      throw accessException(ErrorCode.Unauthenticated, 'authentication_required', locale);
    return token;
  }

  /** The caller a token (as sent in `Authorization`) stands for; null when unknown or the user may not sign in. */
  async resolve(authorization: string): Promise<SessionIdentity | null> {
    const token = accessTokenFromAuthorization(authorization);
    if (token === '') return null;
    const hash = hashAccessToken(token);
    const user = await this.users.findByAccessTokenHash(hash);
    if (!user || user.status !== UserStatus.Enabled) return null;
    return {
      userId: user.id,
      role: user.role,
      group: user.group,
      sessionId: `access-token:${hash.slice(0, 16)}`,
      via: 'access_token',
    };
  }
}
