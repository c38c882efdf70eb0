import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { aSignedInAccount, answerApi, ok, renderApp } from '../../../../test/render-app';
// The route's chunk is compiled when this file loads, not inside a find* timeout.
import '../../../pages/dashboard/admin/admin-pages';
import { STORAGE_KEYS } from '../../../lib/local-storage-keys';

const payment = {
  id: 41,
  user_id: 9,
  username: 'boris',
  provider: 'yookassa',
  provider_payment_id: '2f8e3c1a-000f-5000-8000-1a2b3c4d5e6f',
  status: 'success',
  amount: '1000',
  currency: 'RUB',
  usd_rub: '80',
  quota: 6_250_000,
  bonus_quota: 0,
  promo_code: null,
  refunded_amount: '0',
  refunded_quota: 0,
  refundable_amount: '1000',
  created_at: 1_767_000_000,
  completed_at: 1_767_000_100,
  refunds: [],
};

const calls = (fetch: jest.Mock, path: string, method = 'GET') =>
  fetch.mock.calls.filter(
    ([url, init]) => String(url).split('?')[0] === path && (init?.method ?? 'GET') === method,
  );

describe('admin payments screen', () => {
  beforeEach(() => {
    localStorage.clear();
    localStorage.setItem(STORAGE_KEYS.userId, '1');
    localStorage.setItem(STORAGE_KEYS.cookieConsent, 'accepted');
  });

  it('filters payments, opens one and refunds part of it after a confirmation, once', async () => {
    const refunded = {
      ...payment,
      refunded_amount: '250.5',
      refunded_quota: 1_565_625,
      refundable_amount: '749.5',
      refunds: [
        {
          id: 1,
          amount: '250.5',
          quota: 1_565_625,
          reason: 'двойное списание',
          source: 'operator',
          actor_id: 1,
          provider_refund_id: 'r-1',
          created_at: 1_767_000_200,
        },
      ],
    };
    const fetch = answerApi({
      '/api/user/self': ok(aSignedInAccount({ id: 1, role: 10 })),
      '/api/payment/': ok({ page: 1, page_size: 20, total: 1, items: [payment] }),
      '/api/payment/41/refund': ok(refunded, 'Refunded'),
    });
    renderApp('/dashboard/admin/payments');

    const row = await screen.findByTestId('admin-payment-row');
    expect(row).toHaveTextContent('boris');
    expect(row).toHaveTextContent('Карта (ЮKassa)');
    expect(row).toHaveTextContent('Оплачен');

    await userEvent.selectOptions(screen.getByLabelText('Статус'), 'success');
    await userEvent.selectOptions(screen.getByLabelText('Способ оплаты'), 'yookassa');
    await userEvent.type(screen.getByLabelText('ID пользователя'), '9');
    await userEvent.click(screen.getByRole('button', { name: 'Найти' }));
    await waitFor(() =>
      expect(
        calls(fetch, '/api/payment/').some(([url]) => {
          const query = new URL(String(url), 'http://localhost').searchParams;
          return (
            query.get('status') === 'success' &&
            query.get('provider') === 'yookassa' &&
            query.get('user_id') === '9'
          );
        }),
      ).toBe(true),
    );

    await userEvent.click(within(row).getByRole('button', { name: 'Подробнее' }));
    const dialog = await screen.findByRole('dialog', { name: 'Платёж №41' });
    const amount = within(dialog).getByLabelText('Сумма возврата, ₽');
    expect(amount).toHaveValue('1000');
    await userEvent.clear(amount);
    await userEvent.type(amount, '250,50');
    expect(within(dialog).getByRole('button', { name: 'Вернуть' })).toBeDisabled();
    await userEvent.type(within(dialog).getByLabelText('Причина возврата'), 'двойное списание');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Вернуть' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Вернуть 250,50');
    expect(calls(fetch, '/api/payment/41/refund', 'POST')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Подтвердить возврат' }));

    await waitFor(() => expect(calls(fetch, '/api/payment/41/refund', 'POST')).toHaveLength(1));
    const sent = JSON.parse(String(calls(fetch, '/api/payment/41/refund', 'POST')[0]![1]!.body));
    expect(sent).toEqual({
      amount: '250.50',
      reason: 'двойное списание',
      idempotency_key: expect.any(String),
    });
    // The dialog opens afresh on the payment after the refund.
    expect(await screen.findByTestId('payment-refund')).toHaveTextContent('двойное списание');
    expect(screen.getByLabelText('Сумма возврата, ₽')).toHaveValue('749.5');
  });
});
