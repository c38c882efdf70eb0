import { Module } from '@nestjs/common';
import { LedgerAuditController } from './ledger-audit.controller';
import { LedgerAuditService } from './ledger-audit.service';

@Module({
  controllers: [LedgerAuditController],
  providers: [LedgerAuditService],
})
export class LedgerModule {}
