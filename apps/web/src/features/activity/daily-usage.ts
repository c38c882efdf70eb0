import type { DailyModelUsage } from './activity-api';
import { daysOf, type DayRange, type IsoDay } from './date-range';

export interface DayUsage {
  day: IsoDay;
  quota: number;
  requests: number;
  tokens: number;
}

/** Sums the per-model rows into one entry per day of the range; a day without rows had no usage. */
export function dailyUsage(rows: readonly DailyModelUsage[], range: DayRange): DayUsage[] {
  const byDay = new Map<IsoDay, DayUsage>(
    daysOf(range).map((day) => [day, { day, quota: 0, requests: 0, tokens: 0 }]),
  );
  for (const row of rows) {
    const entry = byDay.get(row.date);
    if (!entry) continue;
    entry.quota += row.quota;
    entry.requests += row.requests;
    entry.tokens += row.prompt_tokens + row.completion_tokens;
  }
  return [...byDay.values()];
}
