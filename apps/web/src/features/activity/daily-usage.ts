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

/** Prompt tokens read from the prompt cache and written to it, over a range. */
export interface CacheTotals {
  read: number;
  written5m: number;
  written1h: number;
}

/**
 * The range's prompt-cache reads and its writes for 5 minutes and for an hour: parts of the input
 * tokens priced apart from the rest, so a day's spending can be checked against a provider's bill.
 */
export function cacheTotals(rows: readonly DailyModelUsage[], range: DayRange): CacheTotals {
  const totals: CacheTotals = { read: 0, written5m: 0, written1h: 0 };
  for (const row of rows) {
    if (row.date < range.start || row.date > range.end) continue;
    totals.read += row.cached_tokens;
    totals.written5m += row.cache_write_5m_tokens;
    totals.written1h += row.cache_write_1h_tokens;
  }
  return totals;
}
