import { Module } from '@nestjs/common';
import { SettingsModule } from '../settings/settings.module';
import { MAIL_SENDER } from './mail-sender';
import { mailSenderProvider } from './mail-sender.provider';

@Module({ imports: [SettingsModule], providers: [mailSenderProvider], exports: [MAIL_SENDER] })
export class MailModule {}
