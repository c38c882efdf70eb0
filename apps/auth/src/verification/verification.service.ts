import { Inject, Injectable, Logger } from '@nestjs/common';
import { ErrorCode } from '@tollgate/contracts';
import { KV_STORE, type KvStore } from '@tollgate/kv';
import { InjectServiceConfig, type Locale } from '@tollgate/platform';
import type { AuthConfig } from '../config';
import { enforceRateLimits } from '../http/rate-limit';
import { message } from '../i18n/auth-messages';
import { localizedException, tooManyRequests } from '../i18n/localized-exception';
import { MAIL_SENDER, type MailSender } from '../mail/mail-sender';
import { UsersRepository } from '../users/users.repository';
import { CODE_TTL_MS, VerificationCodesStore } from './verification-codes.store';

const HOUR_MS = 60 * 60_000;

/** GET /api/verification: mails a registration code to an address that has no account yet. */
@Injectable()
export class VerificationService {
  private readonly logger = new Logger(VerificationService.name);

  constructor(
    private readonly codes: VerificationCodesStore,
    private readonly users: UsersRepository,
    @Inject(MAIL_SENDER) private readonly mail: MailSender,
    @Inject(KV_STORE) private readonly kv: KvStore,
    @InjectServiceConfig() private readonly config: AuthConfig,
  ) {}

  async sendRegistrationCode(email: string, clientIp: string, locale: Locale): Promise<string> {
    await enforceRateLimits(
      this.kv,
      [
        {
          key: `auth:verification:ip:${clientIp}`,
          limit: this.config.AUTH_VERIFICATION_LIMIT_PER_IP,
          windowMs: HOUR_MS,
        },
      ],
      (seconds) => tooManyRequests('verification_rate_limited', locale, seconds),
    );
    if (await this.users.emailTaken(email)) {
      throw localizedException(ErrorCode.Conflict, 'email_taken', locale);
    }
    const issued = await this.codes.issue('verification', email);
    if (issued.kind === 'cooldown') {
      throw tooManyRequests('verification_cooldown', locale, issued.retryAfterSeconds);
    }
    try {
      const params = { code: issued.code, minutes: CODE_TTL_MS / 60_000 };
      await this.mail.send({
        to: email,
        subject: message('verification_mail_subject', locale),
        text: message('verification_mail_body', locale, params),
      });
    } catch (error) {
      await this.codes.withdraw('verification', email);
      this.logger.warn(
        `verification mail not sent: ${error instanceof Error ? error.message : String(error)}`,
      );
      throw localizedException(ErrorCode.ServiceUnavailable, 'mail_failed', locale);
    }
    return message('verification_sent', locale);
  }
}
