import { Module } from '@nestjs/common';
import { UsageRecordedConsumer } from './usage-recorded.consumer';
import { UsageSettlementRepository } from './usage-settlement.repository';
import { UsageSettlementService } from './usage-settlement.service';

@Module({
  controllers: [UsageRecordedConsumer],
  providers: [UsageSettlementService, UsageSettlementRepository],
})
export class UsageModule {}
