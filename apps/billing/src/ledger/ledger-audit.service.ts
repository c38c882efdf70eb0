import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';

/** An account whose balance is not the sum of its ledger entries. */
export interface LedgerDiscrepancy {
  user_id: number;
  quota: number;
  ledger_sum: number;
}

interface DiscrepancyRow {
  user_id: number;
  /** bigint and sum(bigint) come back as text. */
  quota: string;
  ledger_sum: string;
}

/** Checks the ledger invariant: every account's quota equals the sum of its entries. */
@Injectable()
export class LedgerAuditService {
  constructor(private readonly em: EntityManager) {}

  async discrepancies(): Promise<LedgerDiscrepancy[]> {
    const rows = await this.em.fork().getConnection().execute<DiscrepancyRow[]>(`
      select a.user_id, a.quota, coalesce(sum(e.amount), 0) as ledger_sum
      from accounts a
      left join ledger_entries e on e.user_id = a.user_id
      group by a.user_id, a.quota
      having a.quota <> coalesce(sum(e.amount), 0)
      order by a.user_id`);
    return rows.map((row) => ({
      user_id: row.user_id,
      quota: Number(row.quota),
      ledger_sum: Number(row.ledger_sum),
    }));
  }
}
