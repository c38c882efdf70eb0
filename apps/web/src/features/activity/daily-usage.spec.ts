import { dailyUsage } from './daily-usage';
import { moscowDayStart } from './date-range';

describe('daily usage', () => {
  const range = { start: '2025-03-01', end: '2025-03-03' };

  it('has every day of the range, summing the models of a day', () => {
    const usage = dailyUsage(
      [
        {
          day: moscowDayStart('2025-03-02'),
          model_name: 'gpt-4o',
          requests: 2,
          prompt_tokens: 10,
          completion_tokens: 5,
          quota: 300,
        },
        {
          day: '2025-03-02',
          model_name: 'claude',
          requests: 1,
          prompt_tokens: 1,
          completion_tokens: 1,
          quota: 50,
        },
        {
          day: '2025-02-27',
          model_name: 'outside',
          requests: 9,
          prompt_tokens: 9,
          completion_tokens: 9,
          quota: 9,
        },
      ],
      range,
    );
    expect(usage).toEqual([
      { day: '2025-03-01', quota: 0, requests: 0, tokens: 0 },
      { day: '2025-03-02', quota: 350, requests: 3, tokens: 17 },
      { day: '2025-03-03', quota: 0, requests: 0, tokens: 0 },
    ]);
  });
});
