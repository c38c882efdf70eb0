import { Inject, Injectable } from '@nestjs/common';
import {
  ErrorCode,
  Role,
  UserStatus,
  type LoginRequest,
  type SessionIdentity,
  type SessionUser,
} from '@tollgate/contracts';
import { KV_STORE, type KvStore } from '@tollgate/kv';
import { InjectServiceConfig, type Locale } from '@tollgate/platform';
import type { AuthConfig } from '../config';
import { SettingsReadModel } from '../settings/settings-read-model';
import { enforceRateLimits } from '../http/rate-limit';
import { localizedException, tooManyRequests } from '../i18n/localized-exception';
import { PasswordHasher } from '../users/password-hasher';
import { sessionUserOf } from '../users/session-user';
import { sessionRevoked } from '../users/sign-in-revocation';
import { UsersRepository } from '../users/users.repository';
import { SessionStore, type StartedSession } from './session.store';

const MINUTE_MS = 60_000;

export interface SignedIn {
  user: SessionUser;
  session: StartedSession;
}

/** Signing in and out, and what the gateway asks: whose session is this? */
@Injectable()
export class SessionsService {
  /** Verified against when the user is unknown, so a miss takes as long as a wrong password. */
  private decoyHash?: Promise<string>;

  constructor(
    private readonly users: UsersRepository,
    private readonly passwords: PasswordHasher,
    private readonly sessions: SessionStore,
    @Inject(KV_STORE) private readonly kv: KvStore,
    @InjectServiceConfig() private readonly config: AuthConfig,
    private readonly settings: SettingsReadModel,
  ) {}

  /** Checks the password and opens a new session; `previous` (the caller's old cookie) is ended. */
  async login(
    request: LoginRequest,
    clientIp: string,
    locale: Locale,
    previous: string | undefined,
  ): Promise<SignedIn> {
    await enforceRateLimits(
      this.kv,
      [
        { key: `auth:login:ip:${clientIp}`, limit: this.config.AUTH_LOGIN_LIMIT_PER_IP, windowMs: MINUTE_MS },
        {
          key: `auth:login:user:${request.username.toLowerCase()}`,
          limit: this.config.AUTH_LOGIN_LIMIT_PER_USERNAME,
          windowMs: MINUTE_MS,
        },
      ],
      (seconds) => tooManyRequests('login_rate_limited', locale, seconds),
    );
    const user = await this.users.findByLogin(request.username);
    const hash = user?.passwordHash ?? (await this.decoy());
    const valid = await this.passwords.verify(hash, request.password);
    if (!user || !user.passwordHash || !valid) {
      throw localizedException(ErrorCode.Unauthenticated, 'invalid_credentials', locale);
    }
    if (user.status !== UserStatus.Enabled) {
      throw localizedException(ErrorCode.Forbidden, 'user_disabled', locale);
    }
    // Root always may, so an operator cannot lock everyone out of the admin area.
    if (!this.settings.passwordLogin() && user.role < Role.Root) {
      throw localizedException(ErrorCode.Forbidden, 'password_login_disabled', locale);
    }
    if (previous) await this.sessions.end(previous);
    return { user: sessionUserOf(user), session: await this.sessions.start(user.id) };
  }

  /** A session for a user who just registered. */
  startFor(userId: number): Promise<StartedSession> {
    return this.sessions.start(userId);
  }

  /** A fresh session for a signed-in user whose earlier ones were just revoked; `previous` is ended. */
  async renew(previous: string | undefined, userId: number): Promise<StartedSession> {
    if (previous) await this.sessions.end(previous);
    return this.sessions.start(userId);
  }

  logout(secret: string | undefined): Promise<void> {
    return secret ? this.sessions.end(secret) : Promise.resolve();
  }

  /**
   * The session's user as of now (role and group may have changed); null when it is gone, the user
   * may not sign in, or the session was begun before the user's password last changed.
   */
  async resolve(secret: string): Promise<SessionIdentity | null> {
    const session = await this.sessions.find(secret);
    if (!session) return null;
    const user = await this.users.findById(session.userId);
    if (!user || user.status !== UserStatus.Enabled || sessionRevoked(session.createdAt, user)) {
      await this.sessions.end(secret);
      return null;
    }
    return {
      userId: user.id,
      role: user.role,
      group: user.group,
      sessionId: session.sessionId,
      via: 'session',
    };
  }

  private decoy(): Promise<string> {
    this.decoyHash ??= this.passwords.hash('decoy password that matches nothing');
    return this.decoyHash;
  }
}
