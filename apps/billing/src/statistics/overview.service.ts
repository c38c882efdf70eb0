import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable, Optional } from '@nestjs/common';
import type { AdminOverview } from '@tollgate/contracts';
import { ConsumerLagExporter } from '../usage/consumer-lag.exporter';
import { daysBefore, moscowDay, moscowDayBounds } from './moscow-day';

const WINDOWS = [1, 7, 30] as const;
const TOP_USERS = 5;

/** The admin overview's figures that the daily statistics cannot give: active users, errors, top users, lag. */
@Injectable()
export class OverviewService {
  constructor(
    private readonly em: EntityManager,
    @Optional() private readonly lag?: ConsumerLagExporter,
  ) {}

  async overview(nowSeconds = Math.floor(Date.now() / 1000)): Promise<AdminOverview> {
    const today = moscowDay(nowSeconds);
    const since = (days: number) => new Date(moscowDayBounds(daysBefore(today, days - 1)).start * 1000);
    const connection = this.em.getConnection();
    // One statement, so the three windows come from one snapshot (a settlement committing between
    // separate queries would make "today" miss calls that "30 days" already counts).
    const columns = WINDOWS.map(
      (days) => `count(distinct user_id) filter (where created_at >= ?)::int as active_users_${days},
        (count(*) filter (where created_at >= ?))::int as requests_${days},
        (count(*) filter (where created_at >= ? and status = 'upstream_error'))::int as errors_${days}`,
    ).join(',\n');
    const [row] = await connection.execute<Record<string, number>[]>(
      `select ${columns} from usage_logs where created_at >= ?`,
      [...WINDOWS.flatMap((days) => [since(days), since(days), since(days)]), since(Math.max(...WINDOWS))],
    );
    const windows = WINDOWS.map((days) => ({
      days,
      active_users: row?.[`active_users_${days}`] ?? 0,
      requests: row?.[`requests_${days}`] ?? 0,
      errors: row?.[`errors_${days}`] ?? 0,
    }));
    const top = await connection.execute<
      { user_id: number; username: string | null; quota: string; requests: string }[]
    >(
      `select s.user_id, u.username, sum(s.quota) as quota, sum(s.requests) as requests
       from usage_daily_stats s left join usernames u on u.user_id = s.user_id
       where s.day >= ?
       group by s.user_id, u.username
       order by sum(s.quota) desc, s.user_id
       limit ?`,
      [daysBefore(today, 29), TOP_USERS],
    );
    return {
      windows,
      top_users: top.map((row) => ({
        user_id: row.user_id,
        username: row.username,
        quota: Number(row.quota),
        requests: Number(row.requests),
      })),
      consumer_lag: this.lag?.lastTotal() ?? null,
    };
  }
}
