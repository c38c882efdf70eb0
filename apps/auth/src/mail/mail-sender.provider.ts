import { join } from 'node:path';
import type { Provider } from '@nestjs/common';
import { SERVICE_CONFIG } from '@tollgate/platform';
import type { AuthConfig } from '../config';
import { MAIL_SENDER, type MailSender } from './mail-sender';
import { OutboxDirMailSender } from './outbox-dir-mail-sender';
import { SmtpMailSender } from './smtp-mail-sender';

export function mailSenderFor(config: AuthConfig): MailSender {
  if (config.SMTP_URL) return new SmtpMailSender(config.SMTP_URL, config.MAIL_FROM);
  return new OutboxDirMailSender(
    config.MAIL_OUTBOX_DIR ?? join(config.TOLLGATE_DATA_DIR, 'outbox'),
    config.MAIL_FROM,
  );
}

export const mailSenderProvider: Provider = {
  provide: MAIL_SENDER,
  useFactory: mailSenderFor,
  inject: [SERVICE_CONFIG],
};
