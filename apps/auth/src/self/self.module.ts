import { Module } from '@nestjs/common';
import { BalancesModule } from '../balances/balances.module';
import { SessionsModule } from '../sessions/sessions.module';
import { UsersModule } from '../users/users.module';
import { ProfileService } from './profile.service';
import { SelfController } from './self.controller';
import { SelfService } from './self.service';
import { SettingsService } from './settings.service';

@Module({
  imports: [UsersModule, SessionsModule, BalancesModule],
  controllers: [SelfController],
  providers: [SelfService, ProfileService, SettingsService],
})
export class SelfModule {}
