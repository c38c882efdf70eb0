import { Module } from '@nestjs/common';
import { parseMasterKey, SERVICE_CONFIG } from '@tollgate/platform';
import type { AuthConfig } from '../config';
import { SettingsModule } from '../settings/settings.module';
import { UsersModule } from '../users/users.module';
import { ApiKeyCipher } from './token-crypto';
import { TokensController } from './tokens.controller';
import { TokensRepository } from './tokens.repository';
import { TokensService } from './tokens.service';

@Module({
  imports: [UsersModule, SettingsModule],
  controllers: [TokensController],
  providers: [
    {
      provide: ApiKeyCipher,
      useFactory: (config: AuthConfig) => new ApiKeyCipher(parseMasterKey(config.TOLLGATE_ENCRYPTION_KEY)),
      inject: [SERVICE_CONFIG],
    },
    TokensRepository,
    TokensService,
  ],
  exports: [TokensService],
})
export class TokensModule {}
