import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { STORAGE_KEYS } from '../../../lib/local-storage-keys';
import { moscowDayEnd, moscowDayStart, moscowToday } from '../date-range';
import { answerApi, aSignedInAccount, ok, renderApp, startSignedIn } from '../../../../test/render-app';

const aLogLine = (overrides: Record<string, unknown> = {}) => ({
  id: 'usage-1',
  created_at: 1_795_916_000,
  type: 2,
  user_id: 5,
  username: 'anna',
  token_id: 7,
  token_name: 'ci',
  model_name: 'gpt-4o-mini',
  quota: 13,
  prompt_tokens: 3,
  completion_tokens: 40,
  cached_tokens: 0,
  use_time: 0,
  is_stream: false,
  group: 'default',
  request_id: 'r-1',
  content: '',
  ...overrides,
});

/** A signed-in user at 92.5 rubles to the dollar whose log holds one line. */
const aUserWithOneLogLine = () => ({
  '/api/user/self': ok(aSignedInAccount()),
  '/api/exchange-rate': ok({ usd_rub: '92.5', updated_at: 1_795_916_000, source: 'config', stale: false }),
  '/api/log/self': ok({ items: [aLogLine()], total: 1, page: 1, page_size: 20 }),
  '/api/statistics/self': ok([]),
});

describe('activity screen', () => {
  beforeEach(() => {
    startSignedIn();
  });

  it("shows a cheap request's cost instead of 0,00 ₽", async () => {
    answerApi({
      ...aUserWithOneLogLine(),
    });
    renderApp('/dashboard/activity');
    const row = await screen.findByTestId('log-row');
    // 13 quota units = $0.000026 = 0,002405 ₽ at 92.5; the walk's log read 0,00 ₽ for every such request.
    expect(row.textContent?.replace(/\s/g, ' ')).toContain('0,002405 ₽');
  });

  it("shows a request's prompt-cache writes under its input tokens, and nothing for a request that wrote none", async () => {
    answerApi({
      ...aUserWithOneLogLine(),
      '/api/log/self': ok({
        items: [
          aLogLine({
            id: 'usage-2',
            prompt_tokens: 2_600,
            cache_write_5m_tokens: 500,
            cache_write_1h_tokens: 1_500,
          }),
          aLogLine({ id: 'usage-3', prompt_tokens: 1_100, cache_write_1h_tokens: 1_024 }),
          aLogLine(),
        ],
        total: 3,
        page: 1,
        page_size: 20,
      }),
    });
    renderApp('/dashboard/activity');
    await waitFor(() => expect(screen.getAllByTestId('log-row')).toHaveLength(3));
    const [both, hourOnly, none] = screen.getAllByTestId('log-row');
    const writesOf = (row: HTMLElement | undefined) =>
      row?.querySelector('[data-testid="log-cache-writes"]')?.textContent?.replace(/\s/g, ' ');
    expect(writesOf(both)).toBe('Запись в кэш на 5 мин: 500 · Запись в кэш на 1 ч: 1 500');
    expect(writesOf(hourOnly)).toBe('Запись в кэш на 1 ч: 1 024');
    // A line from a billing that did not send them reads as no writes.
    expect(writesOf(none)).toBeUndefined();
  });

  it("shows the period's prompt-cache reads and writes under the spending chart", async () => {
    const today = moscowToday();
    const aDay = (model_name: string, cache: Record<string, number>) => ({
      date: today,
      start_timestamp: moscowDayStart(today),
      end_timestamp: moscowDayEnd(today),
      model_name,
      requests: 2,
      prompt_tokens: 7_000,
      completion_tokens: 30,
      quota: 700,
      ...cache,
    });
    answerApi({
      ...aUserWithOneLogLine(),
      '/api/statistics/self': ok([
        aDay('claude-sonnet-4-5', {
          cached_tokens: 3_000,
          cache_write_5m_tokens: 1_200,
          cache_write_1h_tokens: 1_500,
        }),
        aDay('claude-haiku-4-5', { cached_tokens: 1_000 }),
        // From a billing before the cache columns: no cache use.
        aDay('gpt-4o-mini', {}),
      ]),
    });
    renderApp('/dashboard/activity');

    const totals = await screen.findByTestId('cache-totals');
    expect(totals.textContent?.replace(/\s/g, ' ')).toBe(
      'Прочитано из кэша: 4 000 · Запись в кэш на 5 мин: 1 200 · Запись в кэш на 1 ч: 1 500',
    );
  });

  it('asks for the export in the currency the screen shows and the browser’s time zone', async () => {
    localStorage.setItem(STORAGE_KEYS.defaultCurrency, 'USD');
    const exported: URL[] = [];
    answerApi({
      ...aUserWithOneLogLine(),
      '/api/log/self/export': (_init, url) => {
        exported.push(url);
        return { status: 429, body: { success: false, message: 'wait' } };
      },
    });
    renderApp('/dashboard/activity');
    await screen.findByTestId('log-row');
    await userEvent.click(screen.getByRole('button', { name: 'Экспорт в CSV' }));
    await waitFor(() => expect(exported).toHaveLength(1));
    expect(exported[0]!.searchParams.get('currency')).toBe('USD');
    expect(exported[0]!.searchParams.get('tz')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });
});
