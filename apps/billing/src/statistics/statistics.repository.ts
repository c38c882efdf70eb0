import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
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
  cachedTokens: number;
  cacheWrite5mTokens: number;
  cacheWrite1hTokens: number;
  quota: number;
}

interface RawDailyModelUsage {
  day: string | Date;
  model: string;
  /** sum(bigint) comes back as text. */
  requests: string;
  prompt_tokens: string;
  completion_tokens: string;
  cached_tokens: string;
  cache_write_5m_tokens: string;
  cache_write_1h_tokens: string;
  quota: string;
}

/** Reads usage_daily_stats; usage settlement (usage/usage-settlement.repository.ts) writes it. */
@Injectable()
export class StatisticsRepository {
  constructor(private readonly em: EntityManager) {}

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
        knex.raw('sum(cached_tokens) as cached_tokens'),
        knex.raw('sum(cache_write_5m_tokens) as cache_write_5m_tokens'),
        knex.raw('sum(cache_write_1h_tokens) as cache_write_1h_tokens'),
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
      cachedTokens: Number(row.cached_tokens),
      cacheWrite5mTokens: Number(row.cache_write_5m_tokens),
      cacheWrite1hTokens: Number(row.cache_write_1h_tokens),
      quota: Number(row.quota),
    }));
  }
}
