import { Controller, Get } from '@nestjs/common';
import { ok, type Envelope } from '@tollgate/contracts';
import { Role, Roles } from '@tollgate/platform';
import { LedgerAuditService, type LedgerDiscrepancy } from './ledger-audit.service';

/** Under /api/log because the route table sends that prefix to billing: the ledger is the log of money. */
@Controller('api/log/ledger-audit')
export class LedgerAuditController {
  constructor(private readonly audit: LedgerAuditService) {}

  @Roles(Role.Admin)
  @Get()
  async discrepancies(): Promise<Envelope<LedgerDiscrepancy[]>> {
    return ok(await this.audit.discrepancies());
  }
}
