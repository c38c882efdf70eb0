import {
  AUDIT_PAGE_DEFAULT_SIZE,
  auditPageSchema,
  type AuditEntryView,
  type Page,
} from '@tollgate/contracts';
import { api } from '../../api/client';

export interface AuditFilters {
  action?: string;
  target_kind?: string;
  target_id?: string;
  actor_id?: number;
  start_timestamp?: number;
  end_timestamp?: number;
}

/** `GET /api/audit`: operators' actions, newest first. */
export async function fetchAudit(filters: AuditFilters, page: number): Promise<Page<AuditEntryView>> {
  const query = Object.fromEntries(
    Object.entries(filters).filter(([, value]) => value !== undefined && value !== ''),
  );
  return auditPageSchema.parse(
    await api.data<unknown>('GET', '/audit', {
      query: { ...query, p: page, page_size: AUDIT_PAGE_DEFAULT_SIZE },
    }),
  );
}
