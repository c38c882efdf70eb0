import { Module } from '@nestjs/common';
import { AccessTokensModule } from '../access-tokens/access-tokens.module';
import { SettingsModule } from '../settings/settings.module';
import { UsersModule } from '../users/users.module';
import { InternalSessionsController } from './internal-sessions.controller';
import { SessionStore } from './session.store';
import { SessionsController } from './sessions.controller';
import { SessionsService } from './sessions.service';

@Module({
  imports: [UsersModule, SettingsModule, AccessTokensModule],
  controllers: [SessionsController, InternalSessionsController],
  providers: [SessionStore, SessionsService],
  exports: [SessionStore, SessionsService],
})
export class SessionsModule {}
