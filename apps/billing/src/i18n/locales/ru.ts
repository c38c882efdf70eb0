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
  // Not SPEC's: billing's own refusals and the answers operators read.
  promo_too_many_tries: 'Слишком много попыток ввести промокод: попробуйте через {seconds} с',
  promo_not_found: 'Промокод не найден',
  promo_code_exists: 'Промокод с таким кодом уже есть',
  promo_max_uses_below_used: 'max_uses: не меньше числа использований кода ({used})',
  promo_expires_before_start: 'expires_at: должно быть позже starts_at',
  payment_not_found: 'Платёж не найден',
  refund_done: 'Возвращено',
  refund_awaiting_provider: 'Возврат запрошен: баланс изменится, когда провайдер его подтвердит',
  refund_repeated: 'Уже возвращено с этим ключом',
  refund_already_whole: 'Платёж уже возвращён полностью',
  refund_not_successful: 'Вернуть можно только успешный платёж, статус этого — {status}',
  refund_above_left: 'amount: вернуть можно не больше {left} ₽',
  refund_no_provider_api:
    'У {provider} здесь нет API возвратов: верните платёж в кабинете провайдера, баланс изменится по его уведомлению',
  refund_refused_by_provider: '{provider} отклонил возврат',
  refund_provider_unavailable: '{provider} недоступен, попробуйте позже',
  refund_balance_spent:
    'Пользователь уже потратил эти средства: возврат списывает {share} квоты, а на балансе {balance}',
  log_range_reversed: 'start_timestamp не может быть позже end_timestamp',
  log_range_too_long: 'Период должен быть короче 31 дня',
  log_export_too_soon: 'Слишком много выгрузок: попробуйте через {seconds} с',
};
