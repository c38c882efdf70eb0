import { checkPaymentForm, presetAmount, type PaymentFormState } from './payment-form';

const valid: PaymentFormState = {
  amount: '1500',
  provider: 'yookassa',
  promoCode: '',
  email: 'anna@example.ru',
  agreed: true,
};

describe('payment form', () => {
  it('accepts an amount, a receipt e-mail and the agreement', () => {
    expect(checkPaymentForm(valid)).toEqual({ amount: '1500' });
    expect(checkPaymentForm({ ...valid, amount: '99,50' })).toEqual({ amount: '99.5' });
  });

  it.each(['', '0', '-5', 'abc', '1.234'])('refuses the amount %p', (amount) => {
    expect(checkPaymentForm({ ...valid, amount })).toEqual({ problem: 'amount_invalid' });
  });

  it('needs a receipt e-mail in a valid format', () => {
    expect(checkPaymentForm({ ...valid, email: ' ' })).toEqual({ problem: 'email_required' });
    expect(checkPaymentForm({ ...valid, email: 'anna@' })).toEqual({ problem: 'email_invalid' });
  });

  it('needs agreement to the rules and the offer', () => {
    expect(checkPaymentForm({ ...valid, agreed: false })).toEqual({ problem: 'agreement_required' });
  });

  it('groups a preset amount as the interface language does', () => {
    expect(presetAmount('1000', 'en')).toBe('1,000');
    expect(presetAmount('1000', 'ru')).toBe(Number(1000).toLocaleString('ru-RU'));
  });
});
