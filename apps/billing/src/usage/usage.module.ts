import { Module } from '@nestjs/common';
import { LedgerModule } from '../ledger/ledger.module';
import { UsageRecordedConsumer } from './usage-recorded.consumer';
import { UsageSettlementService } from './usage-settlement.service';

@Module({
  imports: [LedgerModule],
  providers: [UsageSettlementService, UsageRecordedConsumer],
})
export class UsageModule {}
