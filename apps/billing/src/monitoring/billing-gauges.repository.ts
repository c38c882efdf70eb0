import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';

export interface PaymentTotals {
  provider: string;
  status: string;
  count: number;
  kopecks: number;
}

export type ActivityWindow = '1h' | '1d';
export const ACTIVITY_WINDOWS: Readonly<Record<ActivityWindow, string>> = { '1h': '1 hour', '1d': '1 day' };

export interface Activity {
  keys: number;
  users: number;
}

/** The read-only queries behind billing's business gauges (counts and sums: no row leaves the database). */
@Injectable()
export class BillingGaugesRepository {
  constructor(private readonly em: EntityManager) {}

  async paymentTotals(): Promise<PaymentTotals[]> {
    // count and sum come back as text (bigint, numeric); kopecks are exact in numeric before the cast.
    const rows = await this.em.fork().getConnection().execute<
      { provider: string; status: string; count: string; kopecks: string }[]
    >(`
      select provider, status, count(*) as count, (sum(amount) * 100)::bigint as kopecks
      from payments group by provider, status`);
    return rows.map((row) => ({
      provider: row.provider,
      status: row.status,
      count: Number(row.count),
      kopecks: Number(row.kopecks),
    }));
  }

  /** Keys and users with a usage row in the window (usage_logs_created_at_index bounds the scan). */
  async activity(window: ActivityWindow): Promise<Activity> {
    const [row] = await this.em
      .fork()
      .getConnection()
      .execute<{ keys: string; users: string }[]>(
        `select count(distinct token_id) as keys, count(distinct user_id) as users
       from usage_logs where created_at > now() - ?::interval`,
        [ACTIVITY_WINDOWS[window]],
      );
    return { keys: Number(row?.keys ?? 0), users: Number(row?.users ?? 0) };
  }
}
