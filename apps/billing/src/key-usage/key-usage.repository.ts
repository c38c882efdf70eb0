import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import type { GenerationResult, KeyUsageResult } from '@tollgate/contracts';
import { UsageLog } from '../logs/usage-log.entity';

/**
 * What relay asks of the usage log for API clients: a key's spending today and this month (from the
 * daily statistics, which outlive log retention) and one call by the id its client saw.
 */
@Injectable()
export class KeyUsageRepository {
  constructor(private readonly em: EntityManager) {}

  /** `today`, `monthStart`: Moscow days (YYYY-MM-DD). */
  async keyUsage(tokenId: number, today: string, monthStart: string): Promise<KeyUsageResult> {
    const rows = await this.em.fork().execute<Record<keyof KeyUsageResult, string>[]>(
      `select coalesce(sum(case when day = ?::date then quota end), 0)::text as today_quota,
              coalesce(sum(case when day = ?::date then requests end), 0)::text as today_requests,
              coalesce(sum(quota), 0)::text as month_quota,
              coalesce(sum(requests), 0)::text as month_requests
         from usage_daily_stats
        where token_id = ? and day between ?::date and ?::date`,
      [today, today, tokenId, monthStart, today],
      'all',
    );
    const row = rows[0];
    return {
      today_quota: Number(row?.today_quota ?? 0),
      today_requests: Number(row?.today_requests ?? 0),
      month_quota: Number(row?.month_quota ?? 0),
      month_requests: Number(row?.month_requests ?? 0),
    };
  }

  /** The user's call whose answer id (or request id) is `id`; with `tokenId`, only that key's. */
  async generation(userId: number, id: string, tokenId?: number): Promise<GenerationResult | undefined> {
    const scope = tokenId === undefined ? {} : { tokenId };
    const em = this.em.fork();
    const found =
      (await em.findOne(UsageLog, { userId, responseId: id, ...scope }, { orderBy: { id: 'desc' } })) ??
      (await em.findOne(UsageLog, { userId, requestId: id, ...scope }, { orderBy: { id: 'desc' } }));
    if (found === null) return undefined;
    return {
      id: found.responseId ?? found.requestId,
      request_id: found.requestId,
      model: found.model,
      upstream_model: found.upstreamModel,
      token_id: found.tokenId,
      created_at: Math.floor(found.createdAt.getTime() / 1000),
      prompt_tokens: found.promptTokens,
      completion_tokens: found.completionTokens,
      cached_tokens: found.cachedTokens,
      cache_write_5m_tokens: found.cacheWrite5mTokens,
      cache_write_1h_tokens: found.cacheWrite1hTokens,
      quota: found.quota,
      latency_ms: found.latencyMs,
      ttft_ms: found.ttftMs,
      is_stream: found.isStream,
      status: found.status,
      finish_reason: found.finishReason,
    };
  }
}
