import type { UsageRecorded } from '@tollgate/contracts';
import { moscowDay } from './moscow-day';

/** What a set of usage events adds to one rollup row. */
export interface DailyUsageDelta {
  userId: number;
  day: string;
  model: string;
  tokenId: number;
  requests: number;
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  quota: number;
}

const keyOf = (delta: Pick<DailyUsageDelta, 'userId' | 'day' | 'model' | 'tokenId'>) =>
  JSON.stringify([delta.userId, delta.day, delta.model, delta.tokenId]);

const byRowKey = (a: DailyUsageDelta, b: DailyUsageDelta) =>
  a.userId - b.userId ||
  a.day.localeCompare(b.day) ||
  a.model.localeCompare(b.model) ||
  a.tokenId - b.tokenId;

/**
 * Sums events per (user, Moscow day, model, token). Sorted by row key so that concurrent batches
 * lock rollup rows in one order and cannot deadlock.
 */
export function dailyUsageDeltas(events: readonly UsageRecorded[]): DailyUsageDelta[] {
  const rows = new Map<string, DailyUsageDelta>();
  for (const event of events) {
    const key = {
      userId: event.user_id,
      day: moscowDay(event.created_at),
      model: event.model,
      tokenId: event.token_id ?? 0,
    };
    const id = keyOf(key);
    const row = rows.get(id) ?? {
      ...key,
      requests: 0,
      promptTokens: 0,
      completionTokens: 0,
      cachedTokens: 0,
      quota: 0,
    };
    row.requests += 1;
    row.promptTokens += event.prompt_tokens;
    row.completionTokens += event.completion_tokens;
    row.cachedTokens += event.cached_tokens;
    row.quota += event.quota;
    rows.set(id, row);
  }
  return [...rows.values()].sort(byRowKey);
}
