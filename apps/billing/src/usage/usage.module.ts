import { Module } from '@nestjs/common';
import { LedgerModule } from '../ledger/ledger.module';
import { StatisticsModule } from '../statistics/statistics.module';
import { UsageRecordedConsumer } from './usage-recorded.consumer';
import { UsageSettlementService } from './usage-settlement.service';

@Module({
  imports: [LedgerModule, StatisticsModule],
  controllers: [UsageRecordedConsumer],
  providers: [UsageSettlementService],
})
export class UsageModule {}
