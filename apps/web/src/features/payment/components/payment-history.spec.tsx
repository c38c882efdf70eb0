import { act, screen } from '@testing-library/react';
import {
  answerApi,
  aSignedInAccount,
  enabledStatus,
  ok,
  renderApp,
  startSignedIn,
} from '../../../../test/render-app';
import { i18next } from '../../../i18n/i18n';

const aPayment = {
  id: 1,
  amount: '2000.00',
  currency: 'RUB',
  status: 'test_success',
  provider: 'test',
  quota: 10_000_000,
  bonus_quota: 0,
  promo_code: null,
  created_at: 1_795_916_000,
  completed_at: 1_795_916_000,
};

describe('payment history', () => {
  beforeEach(() => {
    startSignedIn();
  });
  afterEach(() => act(() => i18next.changeLanguage('ru')));

  it("writes a top-up's rubles with the ruble sign in English (not 'RUB 2,000.00')", async () => {
    answerApi({
      '/api/user/self': ok(aSignedInAccount()),
      '/api/status': ok(enabledStatus),
      '/api/user/payment/logs': ok({ items: [aPayment], total: 1, page: 1, page_size: 20 }),
    });
    renderApp('/dashboard/payment');
    await act(() => i18next.changeLanguage('en'));
    expect(await screen.findByTestId('payment-row')).toHaveTextContent('₽2,000.00');
  });
});
