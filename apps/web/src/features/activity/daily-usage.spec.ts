import type { DailyModelUsage } from './activity-api';
import { dailyUsage } from './daily-usage';
import { moscowDayEnd, moscowDayStart } from './date-range';

function usage(
  date: string,
  model_name: string,
  requests: number,
  tokens: number,
  quota: number,
): DailyModelUsage {
  return {
    date,
    start_timestamp: moscowDayStart(date),
    end_timestamp: moscowDayEnd(date),
    model_name,
    requests,
    prompt_tokens: tokens,
    completion_tokens: tokens,
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
});
