/** Every message billing answers a person with; the texts are in locales/, one file per language. */
export const BILLING_MESSAGE_KEYS = [
  'affiliate_transfer_below_minimum',
  'affiliate_quota_insufficient',
  'payment_method_unavailable',
  'payment_amount_out_of_range',
  'payment_system_unavailable',
  'promo_invalid',
  'promo_bonus_percent',
  'promo_bonus_fixed',
  'promo_description',
  'promo_description_from_amount',
] as const;
export type BillingMessageKey = (typeof BILLING_MESSAGE_KEYS)[number];
