import { Module } from '@nestjs/common';
import { MailModule } from '../mail/mail.module';
import { UsersModule } from '../users/users.module';
import { VerificationCodesStore } from './verification-codes.store';
import { VerificationController } from './verification.controller';
import { VerificationService } from './verification.service';

@Module({
  imports: [UsersModule, MailModule],
  controllers: [VerificationController],
  providers: [VerificationCodesStore, VerificationService],
  exports: [VerificationCodesStore],
})
export class VerificationModule {}
