import { messageLookup, type MessageTables } from '@tollgate/platform';
import { en } from './locales/en';
import { ru } from './locales/ru';

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

/** One table per language (locales.spec.ts checks they agree). */
export const MESSAGES: MessageTables<BillingMessageKey> = { ru, en };

/** The message in the caller's language, with `{name}` placeholders filled in. */
export const message = messageLookup(MESSAGES);
