import { join } from 'node:path';
import type { Provider } from '@nestjs/common';
import { SERVICE_CONFIG } from '@tollgate/platform';
import type { AuthConfig } from '../config';
import { SettingsReadModel } from '../settings/settings-read-model';
import { MAIL_SENDER, type MailSender } from './mail-sender';
import { OutboxDirMailSender } from './outbox-dir-mail-sender';
import { SmtpMailSender } from './smtp-mail-sender';

export function mailSenderFor(config: AuthConfig, from: () => string = () => config.MAIL_FROM): MailSender {
  if (config.SMTP_URL) return new SmtpMailSender(config.SMTP_URL, from);
  return new OutboxDirMailSender(config.MAIL_OUTBOX_DIR ?? join(config.TOLLGATE_DATA_DIR, 'outbox'), from);
}

export const mailSenderProvider: Provider = {
  provide: MAIL_SENDER,
  useFactory: (config: AuthConfig, settings: SettingsReadModel) =>
    mailSenderFor(config, () => settings.mailFrom()),
  inject: [SERVICE_CONFIG, SettingsReadModel],
};
