import { Module } from '@nestjs/common';
import { TokenExpirySweeper } from './token-expiry.sweeper';
import { TokenUsageConsumer } from './token-usage.consumer';
import { TokenUsageRepository } from './token-usage.repository';

@Module({
  controllers: [TokenUsageConsumer],
  providers: [TokenUsageRepository, TokenExpirySweeper],
})
export class TokenUsageModule {}
