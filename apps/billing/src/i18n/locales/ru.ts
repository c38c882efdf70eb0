import type { BillingMessageKey } from '../message-keys';

/** Russian, the default language. The texts are SPEC's: change none without it. */
export const ru: Record<BillingMessageKey, string> = {
  affiliate_transfer_below_minimum: 'Минимальная сумма перевода — {minimum} квоты',
  affiliate_quota_insufficient: 'Недостаточно партнёрской квоты',
  payment_method_unavailable: 'Этот способ оплаты сейчас недоступен',
  payment_amount_out_of_range: 'Сумма пополнения должна быть от {min} до {max} ₽',
  payment_system_unavailable: 'Платёжная система недоступна, попробуйте позже',
  // The one answer for any code that cannot be used, whatever the reason (SPEC §5).
  promo_invalid: 'Промокод недействителен',
  promo_bonus_percent: '+{value}% к пополнению',
  promo_bonus_fixed: '+{value} ₽ к пополнению',
  // {bonus} is promo_bonus_percent or promo_bonus_fixed.
  promo_description: 'Бонус {bonus}',
  promo_description_from_amount: 'Бонус {bonus} от {min} ₽',
};
