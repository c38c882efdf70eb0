import { Module } from '@nestjs/common';
import { SessionsModule } from '../sessions/sessions.module';
import { SettingsModule } from '../settings/settings.module';
import { UsersModule } from '../users/users.module';
import { OAuthStateStore } from './oauth-state.store';
import { OAuthStrategies } from './oauth-strategies';
import { OAuthController } from './oauth.controller';
import { OAuthService } from './oauth.service';

@Module({
  imports: [UsersModule, SessionsModule, SettingsModule],
  controllers: [OAuthController],
  providers: [OAuthStrategies, OAuthStateStore, OAuthService],
})
export class OAuthModule {}
