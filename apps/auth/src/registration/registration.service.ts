import { Injectable } from '@nestjs/common';
import { ErrorCode, type RegisterRequest } from '@tollgate/contracts';
import type { Locale } from '@tollgate/platform';
import { localizedException } from '../i18n/localized-exception';
import type { SignedIn } from '../sessions/sessions.service';
import { SessionStore } from '../sessions/session.store';
import { SettingsReadModel } from '../settings/settings-read-model';
import { PasswordHasher } from '../users/password-hasher';
import { sessionUserOf } from '../users/session-user';
import { UsersRepository } from '../users/users.repository';
import { VerificationCodesStore } from '../verification/verification-codes.store';

/**
 * POST /api/user/register: a new ordinary user, with the mailed code when the platform verifies
 * addresses, signed in at once (the web client treats a registration like a login).
 */
@Injectable()
export class RegistrationService {
  constructor(
    private readonly users: UsersRepository,
    private readonly passwords: PasswordHasher,
    private readonly codes: VerificationCodesStore,
    private readonly sessions: SessionStore,
    private readonly settings: SettingsReadModel,
  ) {}

  async register(request: RegisterRequest, locale: Locale): Promise<SignedIn> {
    if (!this.settings.registrationOpen()) {
      throw localizedException(ErrorCode.Forbidden, 'registration_closed', locale);
    }
    const verifying = this.settings.emailVerification();
    if (verifying) {
      if (!request.verification_code) {
        throw localizedException(ErrorCode.ValidationFailed, 'verification_code_required', locale);
      }
      if (!(await this.codes.matches('verification', request.email, request.verification_code))) {
        throw localizedException(ErrorCode.ValidationFailed, 'verification_code_invalid', locale);
      }
    }
    // An unknown invite code does not stop a registration (as in new-api); it just records no inviter.
    const inviterId = request.aff_code ? await this.users.idOfAffCode(request.aff_code) : null;
    const outcome = await this.users.create({
      username: request.username,
      email: request.email,
      passwordHash: await this.passwords.hash(request.password),
      inviterId,
      consentedAt: new Date(),
    });
    if (outcome.kind === 'taken') {
      throw localizedException(
        ErrorCode.Conflict,
        outcome.field === 'username' ? 'username_taken' : 'email_taken',
        locale,
      );
    }
    if (verifying) await this.codes.consume('verification', request.email);
    return { user: sessionUserOf(outcome.user), session: await this.sessions.start(outcome.user.id) };
  }
}
