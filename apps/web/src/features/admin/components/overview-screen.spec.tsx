import { screen } from '@testing-library/react';
import { answerApi, aSignedInAccount, ok, renderApp, startSignedIn } from '../../../../test/render-app';
import { addDays, moscowDayEnd, moscowDayStart, moscowToday } from '../../activity/date-range';
// The route's chunk is compiled when this file loads, not inside a find* timeout.
import '../../../pages/dashboard/admin/admin-pages';

const aModelDay = (date: string, cache: Record<string, number>) => ({
  date,
  start_timestamp: moscowDayStart(date),
  end_timestamp: moscowDayEnd(date),
  model_name: 'claude-sonnet-4-5',
  requests: 2,
  prompt_tokens: 9_000,
  completion_tokens: 40,
  quota: 900,
  ...cache,
});

describe('admin overview', () => {
  beforeEach(() => {
    startSignedIn();
  });

  it("shows each window's prompt-cache reads and writes, 5-minute and hour-long apart", async () => {
    const today = moscowToday();
    answerApi({
      '/api/user/self': ok(aSignedInAccount({ role: 10 })),
      '/api/statistics/': ok([
        aModelDay(addDays(today, -10), { cached_tokens: 5_000, cache_write_1h_tokens: 2_000 }),
        aModelDay(addDays(today, -3), { cached_tokens: 0 }),
        aModelDay(today, {
          cached_tokens: 3_000,
          cache_write_5m_tokens: 1_200,
          cache_write_1h_tokens: 1_500,
        }),
      ]),
      '/api/statistics/overview': ok({ windows: [], top_users: [], consumer_lag: 0 }),
    });
    renderApp('/dashboard/admin');

    const today1 = await screen.findByTestId('overview-cache-1');
    const text = (element: HTMLElement) => element.textContent?.replace(/\s/g, ' ');
    expect(text(today1)).toBe(
      'Кэш промптов, токенов: прочитано 3 000 · записано на 5 мин 1 200 · на 1 ч 1 500',
    );
    expect(text(screen.getByTestId('overview-cache-30'))).toBe(
      'Кэш промптов, токенов: прочитано 8 000 · записано на 5 мин 1 200 · на 1 ч 3 500',
    );
  });
});
