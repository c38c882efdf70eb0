import { screen } from '@testing-library/react';
import { answerApi, enabledStatus, ok, renderApp } from '../../../../test/render-app';

describe('docs: limits', () => {
  it("lists each group's rate limits from /api/status, with 'no limit' where a limit is 0", async () => {
    answerApi({
      '/api/status': ok({
        ...enabledStatus,
        group_rate_limits: {
          vip: { rpm: 600, tpm: 0, concurrency: 50 },
          default: { rpm: 60, tpm: 200_000, concurrency: 0 },
        },
      }),
    });
    renderApp('/docs/limits');
    expect(await screen.findByRole('heading', { level: 1, name: 'Ограничения' })).toBeInTheDocument();
    const rows = await screen.findAllByTestId('group-limits-row');
    const cells = rows.map((row) =>
      Array.from(row.children, (cell) => cell.textContent?.replace(/\s/g, ' ')),
    );
    expect(cells).toEqual([
      ['default', '60', '200 000', 'без ограничения'],
      ['vip', '600', 'без ограничения', '50'],
    ]);
    expect(screen.getByText(/x-ratelimit-reset-tokens/)).toBeInTheDocument();
    expect(screen.getByText(/429 с заголовком Retry-After/)).toBeInTheDocument();
  });

  it('says no group has rate limits when /api/status names none', async () => {
    answerApi({ '/api/status': ok(enabledStatus) });
    renderApp('/docs/limits');
    expect(await screen.findByText(/Сейчас лимитов частоты нет ни у одной группы/)).toBeInTheDocument();
    expect(screen.queryByTestId('group-limits-row')).toBeNull();
  });
});
