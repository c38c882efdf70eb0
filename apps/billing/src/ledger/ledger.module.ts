import { Module } from '@nestjs/common';
import { LedgerAuditController } from './ledger-audit.controller';
import { LedgerAuditService } from './ledger-audit.service';
import { LedgerService } from './ledger.service';

@Module({
  controllers: [LedgerAuditController],
  providers: [LedgerAuditService, LedgerService],
  exports: [LedgerService, LedgerAuditService],
})
export class LedgerModule {}
