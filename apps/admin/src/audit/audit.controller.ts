import { Controller, Get, Query } from '@nestjs/common';
import {
  AUDIT_PAGE_DEFAULT_SIZE,
  auditListQuerySchema,
  ok,
  pageQuerySchema,
  type AuditEntryView,
  type Envelope,
  type Page,
} from '@tollgate/contracts';
import { Role, Roles } from '@tollgate/platform';
import { AuditRepository } from './audit.repository';

const pageQuery = pageQuerySchema(AUDIT_PAGE_DEFAULT_SIZE, 100);

/** The audit trail of operators' actions, newest first (admins and root). */
@Controller('api/audit')
@Roles(Role.Admin)
export class AuditController {
  constructor(private readonly audit: AuditRepository) {}

  @Get()
  async list(@Query() query: unknown): Promise<Envelope<Page<AuditEntryView>>> {
    const { page, pageSize } = pageQuery.parse(query);
    return ok(await this.audit.page(auditListQuerySchema.parse(query), page, pageSize));
  }
}
