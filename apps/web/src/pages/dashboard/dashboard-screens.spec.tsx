import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  answerApi,
  aSignedInAccount,
  aTokenView,
  enabledStatus,
  ok,
  renderApp,
  startSignedIn,
} from '../../../test/render-app';
import { STORAGE_KEYS } from '../../lib/local-storage-keys';

const account = aSignedInAccount();

const token = aTokenView();

const sentTo = (fetch: jest.Mock, path: string, method: string) =>
  fetch.mock.calls.some(([url, init]) => String(url).split('?')[0] === path && init?.method === method);

describe('dashboard screens', () => {
  beforeEach(() => {
    startSignedIn();
    localStorage.setItem(STORAGE_KEYS.defaultCurrency, 'USD');
  });

  it('lists keys and will not create one without a name', async () => {
    const fetch = answerApi({
      '/api/user/self': ok(account),
      '/api/token/': ok({ items: [token], total: 1, page: 1, page_size: 100 }),
    });
    renderApp('/dashboard/tokens');
    expect(await screen.findByText('sk-abcd****wxyz')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Создать ключ' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Создать' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Название ключа не может быть пустым');
    expect(sentTo(fetch, '/api/token/', 'POST')).toBe(false);
  });

  it('deletes a key only after confirmation', async () => {
    const fetch = answerApi({
      '/api/user/self': ok(account),
      '/api/token/': ok({ items: [token], total: 1, page: 1, page_size: 100 }),
      '/api/token/7': ok(null),
    });
    renderApp('/dashboard/tokens');
    await userEvent.click(await screen.findByRole('button', { name: 'Удалить' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Ключ «ci» перестанет работать');
    expect(sentTo(fetch, '/api/token/7', 'DELETE')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Удалить' }));
    await waitFor(() => expect(sentTo(fetch, '/api/token/7', 'DELETE')).toBe(true));
  });

  it('shows the balance in the chosen currency', async () => {
    answerApi({ '/api/user/self': ok(account) });
    renderApp('/dashboard/payment');
    expect(await screen.findByTestId('balance')).toHaveTextContent(/^2,00\s\$$/);
  });

  it("says 'Промокод недействителен' when the server refuses the code, and creates no payment", async () => {
    const fetch = answerApi({
      '/api/user/self': ok(account),
      '/api/status': ok(enabledStatus),
      // Billing's answer to a code it will not take: a verdict in a failed envelope, with HTTP 200.
      '/api/promo/validate': {
        status: 200,
        body: {
          success: false,
          message: 'Промокод недействителен',
          data: { valid: false, code: 'NOPE', description: 'Промокод недействителен' },
        },
      },
    });
    renderApp('/dashboard/payment');
    await userEvent.type(await screen.findByLabelText('Промокод'), 'NOPE');
    await userEvent.click(screen.getByRole('checkbox', { name: /Я принимаю/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Перейти к оплате' }));
    // SPEC's words alone, not a failed check ('Ошибка проверки промокода: …').
    expect(await screen.findByText('Промокод недействителен')).toHaveAttribute('role', 'alert');
    expect(screen.queryByText(/Ошибка проверки промокода/)).toBeNull();
    expect(sentTo(fetch, '/api/user/payment', 'POST')).toBe(false);
  });

  it('needs the agreement before paying', async () => {
    answerApi({ '/api/user/self': ok(account), '/api/status': ok(enabledStatus) });
    renderApp('/dashboard/payment');
    await screen.findByDisplayValue('anna@example.ru');
    await userEvent.click(screen.getByRole('button', { name: 'Перейти к оплате' }));
    expect(screen.getByText('Необходимо принять Правила и Оферту')).toHaveAttribute('role', 'alert');
  });

  it('shows an honest error when the changelog cannot be read', async () => {
    answerApi({ '/api/user/self': ok(account) });
    renderApp('/changelog');
    expect(await screen.findByRole('alert')).toHaveTextContent('No route for /api/versions');
  });

  it.each(['desktop', 'mobile'] as const)('opens the docs introduction from /docs (%s)', async (device) => {
    answerApi({});
    const { router } = renderApp('/docs', device);
    await waitFor(() => expect(router.state.location.pathname).toBe('/docs/getting-started'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Введение' })).toBeInTheDocument();
  });
});
