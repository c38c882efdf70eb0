import { localeFromAcceptLanguage, messageTableProblems, type MessageParams } from '@tollgate/platform';
import { BILLING_MESSAGE_KEYS, MESSAGES, message, type BillingMessageKey } from './messages';

describe('billing locale files', () => {
  it('have every message key and no other, each with a text and the same placeholders', () => {
    expect(messageTableProblems(MESSAGES, BILLING_MESSAGE_KEYS)).toEqual([]);
  });

  // The Russian texts are SPEC's, compared byte for byte.
  it.each<[BillingMessageKey, MessageParams, string, string]>([
    [
      'affiliate_transfer_below_minimum',
      { minimum: 500000 },
      'Минимальная сумма перевода — 500000 квоты',
      'The minimum transfer is 500000 quota',
    ],
    ['affiliate_quota_insufficient', {}, 'Недостаточно партнёрской квоты', 'Not enough affiliate quota'],
    [
      'payment_method_unavailable',
      {},
      'Этот способ оплаты сейчас недоступен',
      'This payment method is currently unavailable',
    ],
    [
      'payment_amount_out_of_range',
      { min: '100', max: '500000' },
      'Сумма пополнения должна быть от 100 до 500000 ₽',
      'The top-up amount must be between 100 ₽ and 500000 ₽',
    ],
    [
      'payment_system_unavailable',
      {},
      'Платёжная система недоступна, попробуйте позже',
      'The payment system is unavailable, please try again later',
    ],
    ['promo_invalid', {}, 'Промокод недействителен', 'The promo code is not valid'],
  ])('%s is Russian without Accept-Language and English for an English caller', (key, params, ru, en) => {
    expect(message(key, localeFromAcceptLanguage(undefined), params)).toBe(ru);
    expect(message(key, localeFromAcceptLanguage('en-US,en;q=0.9'), params)).toBe(en);
  });
});
