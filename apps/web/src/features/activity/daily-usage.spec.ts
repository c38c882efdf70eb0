import type { DailyModelUsage } from './activity-api';
import { cacheTotals, dailyUsage } from './daily-usage';
import { moscowDayEnd, moscowDayStart } from './date-range';

function usage(
  date: string,
  model_name: string,
  requests: number,
  tokens: number,
  quota: number,
  cache: Partial<
    Pick<DailyModelUsage, 'cached_tokens' | 'cache_write_5m_tokens' | 'cache_write_1h_tokens'>
  > = {},
): DailyModelUsage {
  return {
    date,
    start_timestamp: moscowDayStart(date),
    end_timestamp: moscowDayEnd(date),
    model_name,
    requests,
    prompt_tokens: tokens,
    completion_tokens: tokens,
    cached_tokens: 0,
    cache_write_5m_tokens: 0,
    cache_write_1h_tokens: 0,
    ...cache,
    quota,
  };
}

describe('daily usage', () => {
  const range = { start: '2025-03-01', end: '2025-03-03' };

  it('has every day of the range, summing the models of a day', () => {
    const days = dailyUsage(
      [
        usage('2025-03-02', 'gpt-4o', 2, 5, 300),
        usage('2025-03-02', 'claude', 1, 1, 50),
        usage('2025-02-27', 'x', 9, 9, 9),
      ],
      range,
    );
    expect(days).toEqual([
      { day: '2025-03-01', quota: 0, requests: 0, tokens: 0 },
      { day: '2025-03-02', quota: 350, requests: 3, tokens: 12 },
      { day: '2025-03-03', quota: 0, requests: 0, tokens: 0 },
    ]);
  });

  it("sums the range's prompt-cache reads and its 5-minute and hour-long writes apart", () => {
    const totals = cacheTotals(
      [
        usage('2025-03-01', 'claude', 2, 900, 80, {
          cached_tokens: 300,
          cache_write_5m_tokens: 200,
          cache_write_1h_tokens: 100,
        }),
        usage('2025-03-03', 'claude', 1, 500, 40, { cached_tokens: 50, cache_write_5m_tokens: 25 }),
        usage('2025-03-04', 'claude', 1, 500, 40, { cached_tokens: 7, cache_write_1h_tokens: 7 }),
      ],
      range,
    );
    expect(totals).toEqual({ read: 350, written5m: 225, written1h: 100 });
  });
});
