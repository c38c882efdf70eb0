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

describe('top-up form', () => {
  beforeEach(() => {
    startSignedIn();
    sessionStorage.clear();
  });

  const paymentApi = () =>
    answerApi({
      '/api/user/self': ok(aSignedInAccount()),
      '/api/status': ok(enabledStatus),
      '/api/user/payment/logs': ok({ items: [], total: 0, page: 1, page_size: 20 }),
    });

  it('comes back from the provider set to the method the payer chose, crypto too', async () => {
    paymentApi();
    const first = renderApp('/dashboard/payment');
    expect(await screen.findByRole('radio', { name: /Банковская карта/ })).toBeChecked();
    await userEvent.click(screen.getByRole('radio', { name: /Криптовалюта/ }));
    expect(screen.getByRole('radio', { name: /Криптовалюта/ })).toBeChecked();
    // The provider's page sends the payer back to a freshly loaded payment page.
    first.unmount();
    paymentApi();
    renderApp('/dashboard/payment');
    expect(await screen.findByRole('radio', { name: /Криптовалюта/ })).toBeChecked();
    expect(screen.getByRole('radio', { name: /Банковская карта/ })).not.toBeChecked();
  });

  it('drops the refusal of a bad promo code once a good one is applied', async () => {
    answerApi({
      '/api/user/self': ok(aSignedInAccount()),
      '/api/status': ok(enabledStatus),
      '/api/user/payment/logs': ok({ items: [], total: 0, page: 1, page_size: 20 }),
      '/api/promo/validate': (init) => {
        const { code } = JSON.parse(String(init?.body)) as { code: string };
        return code === 'WALK10'
          ? ok({ valid: true, code, type: 'percent', value: '10', description: 'Бонус +10% к пополнению' })
          : { status: 200, body: { success: false, message: 'Промокод недействителен', data: null } };
      },
    });
    renderApp('/dashboard/payment');
    const promo = await screen.findByLabelText('Промокод');
    await userEvent.type(promo, 'NOPE');
    await userEvent.click(screen.getByRole('button', { name: 'Применить' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Промокод недействителен');

    await userEvent.clear(promo);
    await userEvent.type(promo, 'WALK10');
    await userEvent.click(screen.getByRole('button', { name: 'Применить' }));
    expect(await screen.findByText('Промокод применён: Бонус +10% к пополнению')).toBeInTheDocument();
    // Seen on a phone: both the bonus and 'Промокод недействителен' under one field.
    expect(screen.queryByText('Промокод недействителен')).toBeNull();
  });

  it('says no method is set up, and offers no payment, when the operator has none', async () => {
    answerApi({
      '/api/user/self': ok(aSignedInAccount()),
      '/api/status': ok({
        ...enabledStatus,
        yookassa_enabled: false,
        crypto_enabled: false,
        payment_test_enabled: false,
      }),
      '/api/user/payment/logs': ok({ items: [], total: 0, page: 1, page_size: 20 }),
    });
    renderApp('/dashboard/payment');
    expect(
      await screen.findByText(
        'Пополнение сейчас недоступно: ни один способ оплаты ещё не подключён. Напишите в поддержку.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryAllByRole('radio')).toEqual([]);
    expect(screen.getByRole('button', { name: 'Перейти к оплате' })).toBeDisabled();
  });
});
