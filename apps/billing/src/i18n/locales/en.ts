import type { BillingMessageKey } from '../message-keys';

/** English, written to match the Russian texts. */
export const en: Record<BillingMessageKey, string> = {
  affiliate_transfer_below_minimum: 'The minimum transfer is {minimum} quota',
  affiliate_quota_insufficient: 'Not enough affiliate quota',
  payment_method_unavailable: 'This payment method is currently unavailable',
  payment_amount_out_of_range: 'The top-up amount must be between {min} ₽ and {max} ₽',
  payment_system_unavailable: 'The payment system is unavailable, please try again later',
  promo_invalid: 'The promo code is not valid',
  promo_bonus_percent: '+{value}% on your top-up',
  promo_bonus_fixed: '+{value} ₽ on your top-up',
  promo_description: 'Bonus {bonus}',
  promo_description_from_amount: 'Bonus {bonus} of {min} ₽ or more',
};
