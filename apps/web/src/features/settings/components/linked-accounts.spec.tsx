import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  answerApi,
  aSignedInAccount,
  enabledStatus,
  ok,
  renderApp,
  startSignedIn,
} from '../../../../test/render-app';

const account = (githubId: string) =>
  aSignedInAccount({ used_quota: 0, request_count: 0, github_id: githubId });

const deletes = (fetch: jest.Mock, path: string) =>
  fetch.mock.calls.filter(([url, init]) => String(url) === path && init?.method === 'DELETE').length;

describe('settings: linked accounts', () => {
  beforeEach(() => {
    startSignedIn();
  });

  it('unlinks GitHub only after confirmation, then shows what self says', async () => {
    let unlinked = false;
    const fetch = answerApi({
      '/api/status': ok(enabledStatus),
      '/api/user/self': () => ok(account(unlinked ? '' : 'gh-42')),
      '/api/user/oauth/github': () => {
        unlinked = true;
        return ok(null, 'Аккаунт GitHub отвязан');
      },
    });
    renderApp('/dashboard/settings');
    expect(await screen.findByText('Привязан: gh-42')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Отвязать GitHub' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Войти через GitHub будет нельзя');
    expect(deletes(fetch, '/api/user/oauth/github')).toBe(0);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Отвязать' }));
    await waitFor(() => expect(screen.queryByText('Привязан: gh-42')).not.toBeInTheDocument());
    expect(deletes(fetch, '/api/user/oauth/github')).toBe(1);
    expect(await screen.findByText('Аккаунт GitHub отвязан')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Привязать GitHub' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it("shows auth's refusal to remove the only way to sign in, and keeps the link", async () => {
    const refusal = 'Нельзя отвязать единственный способ входа: сначала задайте пароль';
    answerApi({
      '/api/status': ok(enabledStatus),
      '/api/user/self': ok(account('gh-42')),
      '/api/user/oauth/github': { status: 400, body: { success: false, message: refusal } },
    });
    renderApp('/dashboard/settings');
    await userEvent.click(await screen.findByRole('button', { name: 'Отвязать GitHub' }));
    await userEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Отвязать' }),
    );
    const linked = screen.getByRole('region', { name: 'Связанные аккаунты' });
    expect(await within(linked).findByRole('alert')).toHaveTextContent(refusal);
    expect(within(linked).getByText('Привязан: gh-42')).toBeInTheDocument();
  });
});
