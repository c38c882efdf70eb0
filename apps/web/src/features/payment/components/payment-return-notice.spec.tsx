import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  answerApi,
  aSignedInAccount,
  enabledStatus,
  ok,
  renderApp,
  startSignedIn,
} from '../../../../test/render-app';
import { readAwaitedPayment, rememberAwaitedPayment } from '../awaited-payment';

const aPayment = (status: string) => ({
  id: 41,
  amount: '1500',
  currency: 'RUB',
  status,
  provider: 'yookassa',
  quota: 8_333_333,
  bonus_quota: 0,
  promo_code: null,
  created_at: 1_795_900_000,
  completed_at: status === 'pending' ? null : 1_795_900_060,
});

/** The history answers `statuses` one read after another, the last one from then on. */
function answerHistory(statuses: string[], quotas: number[]) {
  let historyReads = 0;
  let accountReads = 0;
  answerApi({
    '/api/user/self': () =>
      ok(aSignedInAccount({ quota: quotas[Math.min(accountReads++, quotas.length - 1)] })),
    '/api/status': ok(enabledStatus),
    '/api/user/payment/logs': () =>
      ok({
        items: [aPayment(statuses[Math.min(historyReads++, statuses.length - 1)]!)],
        total: 1,
        page: 1,
        page_size: 10,
      }),
  });
}

describe('coming back from the payment provider', () => {
  beforeEach(() => {
    startSignedIn();
    sessionStorage.clear();
  });

  it('says the payment awaits confirmation, then that it went through, without a reload', async () => {
    rememberAwaitedPayment(41);
    // The provider's notification lands after the payer is back: the first read is still pending.
    answerHistory(['pending', 'success'], [0, 0, 8_333_333]);
    renderApp('/dashboard/payment');
    expect(await screen.findByTestId('payment-return')).toHaveTextContent(
      'Платёж №41 на 1 500,00 ₽ ждёт подтверждения платёжной системы',
    );
    expect(
      await screen.findByText('Платёж №41 на 1 500,00 ₽ прошёл: баланс пополнен.', {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(await screen.findByText('Оплачен')).toBeInTheDocument();
    expect(readAwaitedPayment()).toBeNull();
  });

  it('says a canceled payment charged nothing, and can be dismissed', async () => {
    rememberAwaitedPayment(41);
    answerHistory(['canceled'], [0]);
    renderApp('/dashboard/payment');
    expect(
      await screen.findByText('Платёж №41 на 1 500,00 ₽ отменён: деньги не списаны, баланс не изменился.'),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Скрыть' }));
    expect(screen.queryByTestId('payment-return')).toBeNull();
  });

  it('reports nothing on a visit that does not come back from a payment', async () => {
    answerHistory(['canceled'], [0]);
    renderApp('/dashboard/payment');
    expect(await screen.findByText('Отменён')).toBeInTheDocument();
    expect(screen.queryByTestId('payment-return')).toBeNull();
  });
});
