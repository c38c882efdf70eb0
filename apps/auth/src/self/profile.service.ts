import { Injectable } from '@nestjs/common';
import { ErrorCode, Role, type AuthMessageKey, type UpdateSelfRequest } from '@tollgate/contracts';
import { accessException, type Locale } from '@tollgate/platform';
import { localizedException } from '../i18n/localized-exception';
import { PasswordHasher } from '../users/password-hasher';
import type { StartedSession } from '../sessions/session.store';
import { SessionsService } from '../sessions/sessions.service';
import { sessionUserOf } from '../users/session-user';
import { revokeSignIns } from '../users/sign-in-revocation';
import { UsersRepository } from '../users/users.repository';
import type { SessionUser } from '@tollgate/contracts';

export interface ProfileChange {
  user: SessionUser;
  /** What to tell the person: a changed password is named, anything else is a profile update. */
  message: AuthMessageKey;
  /**
   * The caller's new browser session when the password changed (every earlier session and the
   * personal access token have ended); absent otherwise, or when the caller used no session.
   */
  session?: StartedSession;
}

/** The signed-in user changing or deleting their own account (PUT and DELETE /api/user/self). */
@Injectable()
export class ProfileService {
  constructor(
    private readonly users: UsersRepository,
    private readonly passwords: PasswordHasher,
    private readonly sessions: SessionsService,
  ) {}

  /**
   * A new password or address needs the current password, when the account has one (OAuth-only
   * accounts have none). A new password signs the user out everywhere else: `currentSession` (the
   * caller's cookie, if it came with one) is swapped for a fresh session.
   */
  async update(
    userId: number,
    request: UpdateSelfRequest,
    locale: Locale,
    currentSession: string | undefined,
  ): Promise<ProfileChange> {
    const user = await this.users.findById(userId);
    if (!user) throw accessException(ErrorCode.Unauthenticated, 'authentication_required', locale);
    const emailChanges = request.email !== undefined && request.email !== user.email;
    if ((request.password !== undefined || emailChanges) && user.passwordHash) {
      if (request.original_password === undefined) {
        throw localizedException(ErrorCode.ValidationFailed, 'original_password_required', locale);
      }
      if (!(await this.passwords.verify(user.passwordHash, request.original_password))) {
        throw localizedException(ErrorCode.ValidationFailed, 'original_password_wrong', locale);
      }
    }
    const passwordHash =
      request.password === undefined ? undefined : await this.passwords.hash(request.password);
    const outcome = await this.users.change(userId, (found) => {
      if (request.display_name !== undefined) found.displayName = request.display_name;
      if (emailChanges) found.email = request.email ?? null;
      if (passwordHash !== undefined) {
        found.passwordHash = passwordHash;
        revokeSignIns(found, Date.now());
      }
    });
    if (outcome.kind === 'not_found')
      throw accessException(ErrorCode.Unauthenticated, 'authentication_required', locale);
    if (outcome.kind === 'taken') throw localizedException(ErrorCode.Conflict, 'email_taken', locale);
    if (passwordHash === undefined) return { user: sessionUserOf(outcome.user), message: 'profile_updated' };
    return {
      user: sessionUserOf(outcome.user),
      message: 'password_updated',
      ...(currentSession ? { session: await this.sessions.renew(currentSession, userId) } : {}),
    };
  }

  /** Soft delete; the root account stays, so the platform always has one. */
  async delete(userId: number, locale: Locale): Promise<void> {
    const user = await this.users.findById(userId);
    if (!user) throw accessException(ErrorCode.Unauthenticated, 'authentication_required', locale);
    if (user.role >= Role.Root)
      throw localizedException(ErrorCode.Forbidden, 'root_cannot_be_deleted', locale);
    await this.users.softDelete(userId);
  }
}
