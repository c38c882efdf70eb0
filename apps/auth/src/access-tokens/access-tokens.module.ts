import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module';
import { AccessTokensController } from './access-tokens.controller';
import { AccessTokensService } from './access-tokens.service';

@Module({
  imports: [UsersModule],
  controllers: [AccessTokensController],
  providers: [AccessTokensService],
  exports: [AccessTokensService],
})
export class AccessTokensModule {}
