import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { aSignedInAccount, answerApi, aTokenView, ok, renderApp } from '../../../../test/render-app';
// The route's chunk is compiled when this file loads, not inside a find* timeout.
import '../../../pages/dashboard/admin/admin-pages';
import { STORAGE_KEYS } from '../../../lib/local-storage-keys';
import { i18next as i18n } from '../../../i18n/i18n';

const boris = {
  id: 9,
  username: 'boris',
  display_name: 'Boris',
  role: 1,
  status: 1,
  group: 'vip',
  email: 'boris@example.ru',
  quota: 500_000,
  used_quota: 250_000,
  request_count: 12,
  aff_code: null,
  inviter_id: null,
  github_id: '',
  google_id: '',
  discord_id: '',
  created_time: 1_767_000_000,
};

const key = aTokenView({
  id: 3,
  user_id: 9,
  key: 'sk-ab**********wxyz',
  name: 'production',
  accessed_time: 1_767_000_100,
  used_quota: 250_000,
});

const calls = (fetch: jest.Mock, path: string, method = 'GET') =>
  fetch.mock.calls.filter(
    ([url, init]) => String(url).split('?')[0] === path && (init?.method ?? 'GET') === method,
  );

function usersApi() {
  return answerApi({
    '/api/user/self': ok(aSignedInAccount({ id: 1, role: 100 })),
    '/api/user/': (init) =>
      init?.method === 'PUT' ? ok(boris) : ok({ page: 1, page_size: 10, total: 1, items: [boris] }),
    '/api/user/9': ok(boris),
    '/api/user/9/tokens': ok({ page: 1, page_size: 100, total: 1, items: [key] }),
    '/api/log/': ok({
      page: 1,
      page_size: 20,
      total: 1,
      items: [
        {
          id: 'usage-1',
          created_at: 1_767_000_000,
          type: 2,
          user_id: 9,
          username: 'boris',
          token_id: 3,
          token_name: 'production',
          model_name: 'gpt-4o-mini',
          quota: 5000,
          prompt_tokens: 12,
          completion_tokens: 40,
          cached_tokens: 0,
          use_time: 1,
          is_stream: true,
          group: 'vip',
          request_id: 'r1',
          content: '',
          channel: 4,
        },
      ],
    }),
    '/api/payment/': ok({
      page: 1,
      page_size: 20,
      total: 1,
      items: [
        {
          id: 41,
          user_id: 9,
          username: 'boris',
          provider: 'yookassa',
          provider_payment_id: 'p-1',
          status: 'success',
          amount: '1000',
          currency: 'RUB',
          usd_rub: '80',
          quota: 6_250_000,
          bonus_quota: 0,
          promo_code: null,
          refunded_amount: '250.5',
          refunded_quota: 1_565_625,
          refundable_amount: '749.5',
          created_at: 1_767_000_000,
          completed_at: 1_767_000_100,
          refunds: [],
        },
      ],
    }),
    '/api/audit': ok({
      page: 1,
      page_size: 20,
      total: 1,
      items: [
        {
          id: 5,
          service: 'auth',
          actor_id: 1,
          actor_role: 100,
          action: 'user.update',
          target_kind: 'user',
          target_id: '9',
          changed: ['group'],
          before: { group: 'default' },
          after: { group: 'vip' },
          request_id: 'r2',
          created_at: 1_767_000_200,
        },
      ],
    }),
  });
}

describe('admin users: filters, a reason for a balance change, and a user’s page', () => {
  beforeEach(() => {
    localStorage.clear();
    localStorage.setItem(STORAGE_KEYS.userId, '1');
    localStorage.setItem(STORAGE_KEYS.cookieConsent, 'accepted');
  });
  afterEach(() => i18n.changeLanguage('ru'));

  it('filters by role, status and group, and asks why before changing a balance', async () => {
    const fetch = usersApi();
    renderApp('/dashboard/admin/users');
    const row = await screen.findByTestId('admin-user-row');

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Роль' }), '10');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Статус' }), '2');
    await userEvent.type(screen.getByRole('textbox', { name: 'Группа' }), 'vip');
    await userEvent.click(screen.getByRole('button', { name: 'Найти' }));
    await waitFor(() =>
      expect(
        calls(fetch, '/api/user/').some(([url]) => {
          const query = new URL(String(url), 'http://localhost').searchParams;
          return query.get('role') === '10' && query.get('status') === '2' && query.get('group') === 'vip';
        }),
      ).toBe(true),
    );

    await userEvent.click(within(row).getByRole('button', { name: 'Изменить' }));
    const balance = screen.getByLabelText(/Баланс/);
    await userEvent.clear(balance);
    await userEvent.type(balance, '900000');
    const save = screen.getByRole('button', { name: 'Сохранить' });
    expect(save).toBeDisabled();
    // Save waits for a reason, and the field says so.
    expect(screen.getByText(/Обязательно: без причины изменение не сохранить/)).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/Причина изменения баланса/), 'компенсация за сбой');
    await userEvent.click(save);
    await waitFor(() => expect(calls(fetch, '/api/user/', 'PUT')).toHaveLength(1));
    expect(JSON.parse(String(calls(fetch, '/api/user/', 'PUT')[0]![1]!.body))).toMatchObject({
      id: 9,
      quota: 900_000,
      quota_reason: 'компенсация за сбой',
    });
  });

  it("opens a user's page with the balance, masked keys, recent usage and operators' changes", async () => {
    const fetch = usersApi();
    renderApp('/dashboard/admin/users');
    await userEvent.click(await screen.findByRole('link', { name: 'boris' }));

    expect(await screen.findByRole('region', { name: 'Пользователь boris' })).toHaveTextContent('ГруппаVIP');
    const keyRow = await screen.findByTestId('user-key-row');
    expect(keyRow).toHaveTextContent('sk-ab**********wxyz');
    expect(keyRow).toHaveTextContent('Без лимита');
    expect(await screen.findByTestId('user-usage-row')).toHaveTextContent('gpt-4o-mini');
    const paymentRow = await screen.findByTestId('user-payment-row');
    // ru-RU groups with a narrow no-break space and writes kopecks after a comma.
    expect(paymentRow.textContent!.replace(/\s/g, ' ')).toContain('1 000,00 ₽');
    expect(paymentRow.textContent!.replace(/\s/g, ' ')).toContain('250,50 ₽');
    expect(
      new URL(String(calls(fetch, '/api/payment/').at(-1)![0]), 'http://localhost').searchParams.get(
        'user_id',
      ),
    ).toBe('9');
    expect(await screen.findByTestId('user-change')).toHaveTextContent('user.update #1 · group');
    const usage = calls(fetch, '/api/log/').map(
      ([url]) => new URL(String(url), 'http://localhost').searchParams,
    );
    expect(usage.at(-1)!.get('username')).toBe('boris');
    const audit = calls(fetch, '/api/audit').map(
      ([url]) => new URL(String(url), 'http://localhost').searchParams,
    );
    expect(audit.at(-1)!.get('target_kind')).toBe('user');
    expect(audit.at(-1)!.get('target_id')).toBe('9');
  });

  it("writes a user's payments in English money when the interface is English", async () => {
    usersApi();
    renderApp('/dashboard/admin/users/9');
    // renderApp starts in Russian; the operator then switches to English.
    await act(() => i18n.changeLanguage('en'));
    const paymentRow = await screen.findByTestId('user-payment-row');
    expect(paymentRow).toHaveTextContent('₽1,000.00');
    expect(paymentRow).toHaveTextContent('₽250.50');
  });

  it("keeps each of a user's tables scrolling inside its card, so a narrow window does not scroll sideways", async () => {
    usersApi();
    renderApp('/dashboard/admin/users/9');
    await screen.findByTestId('user-payment-row');
    await screen.findByTestId('user-key-row');
    await screen.findByTestId('user-usage-row');
    const tables = [...document.querySelectorAll('main table')];
    expect(tables).toHaveLength(3);
    for (const table of tables) expect(table.parentElement).toHaveClass('overflow-x-auto');
  });
});
