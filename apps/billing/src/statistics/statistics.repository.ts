import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import type { DailyUsageDelta } from './daily-usage';

/** Keeps PostgreSQL's 65 535 bind parameters out of reach (9 per row). */
const ROWS_PER_UPSERT = 1000;

export interface DailyUsageFilter {
  firstDay: string;
  lastDay: string;
  userId?: number;
  tokenId?: number;
}

export interface DailyModelUsageRow {
  day: string;
  model: string;
  requests: number;
  promptTokens: number;
  completionTokens: number;
  quota: number;
}

interface RawDailyModelUsage {
  day: string | Date;
  model: string;
  /** sum(bigint) comes back as text. */
  requests: string;
  prompt_tokens: string;
  completion_tokens: string;
  quota: string;
}

/** Only place that reads or writes usage_daily_stats. */
@Injectable()
export class StatisticsRepository {
  constructor(private readonly em: EntityManager) {}

  /** Adds deltas to their rows inside the caller's transaction, creating rows that do not exist. */
  async add(tx: EntityManager, deltas: readonly DailyUsageDelta[]): Promise<void> {
    for (let start = 0; start < deltas.length; start += ROWS_PER_UPSERT) {
      const chunk = deltas.slice(start, start + ROWS_PER_UPSERT);
      await tx.execute(
        `insert into usage_daily_stats
           (user_id, day, model, token_id, requests, prompt_tokens, completion_tokens, cached_tokens, quota)
         values ${chunk.map(() => '(?, ?::date, ?, ?, ?, ?, ?, ?, ?)').join(', ')}
         on conflict (user_id, day, model, token_id) do update set
           requests = usage_daily_stats.requests + excluded.requests,
           prompt_tokens = usage_daily_stats.prompt_tokens + excluded.prompt_tokens,
           completion_tokens = usage_daily_stats.completion_tokens + excluded.completion_tokens,
           cached_tokens = usage_daily_stats.cached_tokens + excluded.cached_tokens,
           quota = usage_daily_stats.quota + excluded.quota`,
        chunk.flatMap((d) => [
          d.userId,
          d.day,
          d.model,
          d.tokenId,
          d.requests,
          d.promptTokens,
          d.completionTokens,
          d.cachedTokens,
          d.quota,
        ]),
        'run',
      );
    }
  }

  /** Usage per day and model over the filter, days ascending, models by name. */
  async daily(filter: DailyUsageFilter): Promise<DailyModelUsageRow[]> {
    const knex = this.em.fork().getKnex();
    const query = knex('usage_daily_stats')
      .select(
        knex.raw(`to_char(day, 'YYYY-MM-DD') as day`),
        'model',
        knex.raw('sum(requests) as requests'),
        knex.raw('sum(prompt_tokens) as prompt_tokens'),
        knex.raw('sum(completion_tokens) as completion_tokens'),
        knex.raw('sum(quota) as quota'),
      )
      .whereBetween('day', [filter.firstDay, filter.lastDay])
      .groupBy('day', 'model')
      .orderBy([{ column: 'day' }, { column: 'model' }]);
    if (filter.userId !== undefined) void query.where('user_id', filter.userId);
    if (filter.tokenId !== undefined) void query.where('token_id', filter.tokenId);
    const rows = await this.em.fork().getConnection().execute<RawDailyModelUsage[]>(query);
    return rows.map((row) => ({
      day: String(row.day),
      model: row.model,
      requests: Number(row.requests),
      promptTokens: Number(row.prompt_tokens),
      completionTokens: Number(row.completion_tokens),
      quota: Number(row.quota),
    }));
  }
}
