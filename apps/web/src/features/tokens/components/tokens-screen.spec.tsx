import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  answerApi,
  aSignedInAccount,
  aTokenView,
  ok,
  renderApp,
  startSignedIn,
} from '../../../../test/render-app';

/** The caller's 105 keys, newest first, as `/api/token/` pages them. */
function keysPage(page: number, pageSize: number) {
  const all = Array.from({ length: 105 }, (_, i) => aTokenView({ id: 105 - i, name: `key-${105 - i}` }));
  return ok({
    items: all.slice((page - 1) * pageSize, page * pageSize),
    total: all.length,
    page,
    page_size: pageSize,
  });
}

describe('tokens screen', () => {
  beforeEach(() => {
    startSignedIn();
  });

  it('pages a list of more than 100 keys, so the oldest can be reached', async () => {
    answerApi({
      '/api/user/self': ok(aSignedInAccount()),
      '/api/token/': (_init, url) =>
        keysPage(Number(url.searchParams.get('p')), Number(url.searchParams.get('page_size'))),
    });
    renderApp('/dashboard/tokens');
    expect(await screen.findByText('key-105')).toBeInTheDocument();
    expect(screen.getAllByTestId('token-row')).toHaveLength(100);
    expect(screen.getByText('Страница 1 из 2 · всего 105')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Вперёд' }));
    // Seen with 105 keys: the first 100 and no way to the other five.
    expect(await screen.findByText('key-1')).toBeInTheDocument();
    expect(screen.getAllByTestId('token-row')).toHaveLength(5);
    expect(screen.getByText('Страница 2 из 2 · всего 105')).toBeInTheDocument();
    // Two renders of 100 rows in jsdom passed the tier's 15 s on a loaded two-core host.
  }, 30_000);
});
