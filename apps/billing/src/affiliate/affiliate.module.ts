import { Module } from '@nestjs/common';
import { LedgerModule } from '../ledger/ledger.module';
import { AffiliateLinksConsumer } from './affiliate-links.consumer';
import { AffiliateController } from './affiliate.controller';
import { AffiliateService } from './affiliate.service';

@Module({
  imports: [LedgerModule],
  controllers: [AffiliateController, AffiliateLinksConsumer],
  providers: [AffiliateService],
  exports: [AffiliateService],
})
export class AffiliateModule {}
