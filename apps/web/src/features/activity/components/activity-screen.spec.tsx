import { screen } from '@testing-library/react';
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

describe('activity screen', () => {
  beforeEach(() => {
    startSignedIn();
  });

  it("shows a cheap request's cost instead of 0,00 ₽", async () => {
    answerApi({
      '/api/user/self': ok(aSignedInAccount()),
      '/api/exchange-rate': ok({
        usd_rub: '92.5',
        updated_at: 1_795_916_000,
        source: 'config',
        stale: false,
      }),
      '/api/log/self': ok({ items: [aLogLine()], total: 1, page: 1, page_size: 20 }),
      '/api/statistics/self': ok([]),
    });
    renderApp('/dashboard/activity');
    const row = await screen.findByTestId('log-row');
    // 13 quota units = $0.000026 = 0,002405 ₽ at 92.5; the walk's log read 0,00 ₽ for every such request.
    expect(row.textContent?.replace(/\s/g, ' ')).toContain('0,002405 ₽');
  });
});
