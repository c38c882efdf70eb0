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
  promo_too_many_tries: 'Too many promo code attempts: try again in {seconds} seconds',
  promo_not_found: 'Promo code not found',
  promo_code_exists: 'A promo code with this code already exists',
  promo_max_uses_below_used: 'max_uses: the code has been used {used} times',
  promo_expires_before_start: 'expires_at: must be after starts_at',
  payment_not_found: 'Payment not found',
  refund_done: 'Refunded',
  refund_awaiting_provider: 'Refund requested: the balance changes when the provider confirms it',
  refund_repeated: 'Already refunded with this key',
  refund_already_whole: 'This payment is already refunded in full',
  refund_not_successful: 'Only a successful payment can be refunded; this one is {status}',
  refund_above_left: 'amount: at most {left} RUB is left to refund',
  refund_no_provider_api:
    '{provider} has no refund API here: refund in its back office; its notification adjusts the balance',
  refund_refused_by_provider: '{provider} refused the refund',
  refund_provider_unavailable: '{provider} is unavailable, try again later',
  refund_balance_spent:
    'The user has spent it: the refund takes back {share} quota and the balance holds {balance}',
  log_range_reversed: 'start_timestamp must not be after end_timestamp',
  log_range_too_long: 'The time range must be under 31 days',
  log_export_too_soon: 'Too many export requests: try again in {seconds} seconds',
};
