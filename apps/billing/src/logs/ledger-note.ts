import type { Locale } from '@tollgate/platform';
import { message, type BillingMessageKey } from '../i18n/messages';

/**
 * A balance change's note. The ledger keeps it as billing writes it, in English and the same for
 * every reader ('yookassa 1000.00 RUB at 90.5', 'promo 3', ...); the log and its CSV export render the
 * shapes known here in the reader's language (ledgerNoteText) and show any other note as written, so
 * rows written before this rendering read the same way. Amounts stay decimal text, never numbers.
 */
export const ledgerNote = {
  topUp: (provider: string, rubles: string, usdRub: string) => `${provider} ${rubles} RUB at ${usdRub}`,
  promoBonus: (promoId: number | null) => `promo ${promoId}`,
  refund: (provider: string, refundId: number, rubles: string, paymentRubles: string) =>
    `${provider} refund ${refundId} of ${rubles} RUB of ${paymentRubles}`,
};

const DECIMAL = String.raw`\d+(?:\.\d+)?`;
const TOP_UP = new RegExp(String.raw`^(\w+) (${DECIMAL}) RUB at (${DECIMAL})$`);
const PROMO_BONUS = /^promo (\d+)$/;
const REFUND = new RegExp(String.raw`^(\w+) refund (\d+) of (${DECIMAL}) RUB of (${DECIMAL})$`);
/** adjustments.service.ts: `set by admin <id>` and `: <reason>` when one was given. */
const SET_BY_ADMIN = /^set by admin (\d+)(?:: ([\s\S]*))?$/;
/** accounts.service.ts: the starting quota of a new account. */
const NEW_USER_QUOTA = 'QuotaForNewUser';

const PROVIDER_KEYS: Record<string, BillingMessageKey> = {
  yookassa: 'log_note_provider_yookassa',
  crypto: 'log_note_provider_crypto',
  test: 'log_note_provider_test',
};

/** `note` in `locale`'s words and decimal sign; a note of no known shape as written. */
export function ledgerNoteText(note: string, locale: Locale): string {
  const text = (key: BillingMessageKey, params?: Record<string, string>) => message(key, locale, params);
  const amount = (decimal: string) => (locale === 'ru' ? decimal.replace('.', ',') : decimal);
  const provider = (name: string) => (PROVIDER_KEYS[name] ? text(PROVIDER_KEYS[name]) : name);
  let match = TOP_UP.exec(note);
  if (match) {
    return text('log_note_top_up', {
      provider: provider(match[1]!),
      amount: amount(match[2]!),
      rate: amount(match[3]!),
    });
  }
  match = PROMO_BONUS.exec(note);
  if (match) return text('log_note_promo_bonus', { promo: match[1]! });
  match = REFUND.exec(note);
  if (match) {
    return text('log_note_refund', {
      provider: provider(match[1]!),
      refund: match[2]!,
      amount: amount(match[3]!),
      total: amount(match[4]!),
    });
  }
  match = SET_BY_ADMIN.exec(note);
  if (match) {
    return match[2]
      ? text('log_note_set_by_admin_reason', { admin: match[1]!, reason: match[2] })
      : text('log_note_set_by_admin', { admin: match[1]! });
  }
  if (note === NEW_USER_QUOTA) return text('log_note_new_user_quota');
  return note;
}
