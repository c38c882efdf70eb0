import { Inject, Injectable, Logger } from '@nestjs/common';
import { ErrorCode, type PasswordResetRequest } from '@tollgate/contracts';
import { KV_STORE, type KvStore } from '@tollgate/kv';
import { InjectServiceConfig, type Locale } from '@tollgate/platform';
import type { AuthConfig } from '../config';
import { enforceRateLimits } from '../http/rate-limit';
import { message } from '../i18n/auth-messages';
import { localizedException, tooManyRequests } from '../i18n/localized-exception';
import { MAIL_SENDER, type MailSender } from '../mail/mail-sender';
import { PasswordHasher } from '../users/password-hasher';
import { revokeSignIns } from '../users/sign-in-revocation';
import { UsersRepository } from '../users/users.repository';
import { CODE_TTL_MS, VerificationCodesStore } from '../verification/verification-codes.store';

const HOUR_MS = 60 * 60_000;

/**
 * Password reset by a mailed code (GET /api/reset_password, POST /api/user/reset). Asking answers
 * the same whether or not the address has an account: a code (and its cooldown) is made for any
 * address, and mailed only to an account's.
 */
@Injectable()
export class PasswordResetService {
  private readonly logger = new Logger(PasswordResetService.name);

  constructor(
    private readonly codes: VerificationCodesStore,
    private readonly users: UsersRepository,
    private readonly passwords: PasswordHasher,
    @Inject(MAIL_SENDER) private readonly mail: MailSender,
    @Inject(KV_STORE) private readonly kv: KvStore,
    @InjectServiceConfig() private readonly config: AuthConfig,
  ) {}

  async sendCode(email: string, clientIp: string, locale: Locale): Promise<string> {
    await enforceRateLimits(
      this.kv,
      [
        {
          key: `auth:reset:ip:${clientIp}`,
          limit: this.config.AUTH_VERIFICATION_LIMIT_PER_IP,
          windowMs: HOUR_MS,
        },
      ],
      (seconds) => tooManyRequests('reset_rate_limited', locale, seconds),
    );
    const issued = await this.codes.issue('reset', email);
    if (issued.kind === 'cooldown') {
      throw tooManyRequests('verification_cooldown', locale, issued.retryAfterSeconds);
    }
    if (await this.users.findByEmail(email)) {
      try {
        await this.mail.send({
          to: email,
          subject: message('reset_mail_subject', locale),
          text: message('reset_mail_body', locale, { code: issued.code, minutes: CODE_TTL_MS / 60_000 }),
        });
      } catch (error) {
        await this.codes.withdraw('reset', email);
        this.logger.warn(`reset mail not sent: ${error instanceof Error ? error.message : String(error)}`);
        throw localizedException(ErrorCode.ServiceUnavailable, 'mail_failed', locale);
      }
    }
    return message('reset_code_sent', locale);
  }

  /**
   * Sets the new password when the code is the address's live one; the code is used up. Every
   * session and the personal access token end: whoever had them may be why the password was reset.
   */
  async reset(request: PasswordResetRequest, locale: Locale): Promise<void> {
    const invalid = () => localizedException(ErrorCode.ValidationFailed, 'verification_code_invalid', locale);
    if (!(await this.codes.matches('reset', request.email, request.token))) throw invalid();
    const user = await this.users.findByEmail(request.email);
    if (!user) throw invalid();
    const passwordHash = await this.passwords.hash(request.password);
    const outcome = await this.users.change(
      user.id,
      (found) => {
        found.passwordHash = passwordHash;
        revokeSignIns(found, Date.now());
      },
      { publish: false },
    );
    if (outcome.kind !== 'changed') throw invalid();
    await this.codes.consume('reset', request.email);
  }
}
