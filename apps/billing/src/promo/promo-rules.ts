import { normalizeDecimal, toScaledInteger, type PromoType } from '@tollgate/contracts';
import type { Locale } from '@tollgate/platform';
import { percentOf, rublesToQuota } from '../exchange-rate/ruble-quota';
import { message } from '../i18n/messages';

/** What decides whether a code may be used now; counts include pending payments' live reservations. */
export interface PromoUsability {
  active: boolean;
  deleted: boolean;
  startsAt: Date | null;
  expiresAt: Date | null;
  maxUses: number;
  perUserLimit: number;
  /** Consumed uses plus live reservations. */
  heldUses: number;
  /** This user's consumed uses plus live reservations. */
  heldByUser: number;
}

/** Why a code cannot be used; callers answer the promo_invalid message whatever it is. */
export type PromoRefusal =
  'inactive' | 'not_started' | 'expired' | 'exhausted' | 'user_limit' | 'below_min_amount';

export function promoRefusal(promo: PromoUsability, now: Date): PromoRefusal | undefined {
  if (!promo.active || promo.deleted) return 'inactive';
  if (promo.startsAt && now < promo.startsAt) return 'not_started';
  if (promo.expiresAt && now >= promo.expiresAt) return 'expired';
  if (promo.maxUses > 0 && promo.heldUses >= promo.maxUses) return 'exhausted';
  if (promo.perUserLimit > 0 && promo.heldByUser >= promo.perUserLimit) return 'user_limit';
  return undefined;
}

export function belowMinAmount(amount: string, minAmount: string): boolean {
  return toScaledInteger(amount, 2) < toScaledInteger(normalizeDecimal(minAmount), 2);
}

/** Bonus quota: `percent` of the top-up's quota, or `fixed` rubles converted at the payment's rate; rounded down. */
export function promoBonusQuota(type: PromoType, value: string, topUpQuota: number, usdRub: string): number {
  const exact = normalizeDecimal(value);
  return type === 'percent' ? percentOf(topUpQuota, exact) : rublesToQuota(exact, usdRub);
}

/** What the user is told the code gives, in their language. */
export function promoDescription(type: PromoType, value: string, minAmount: string, locale: Locale): string {
  const bonusKey = type === 'percent' ? 'promo_bonus_percent' : 'promo_bonus_fixed';
  const bonus = message(bonusKey, locale, { value: normalizeDecimal(value) });
  const min = normalizeDecimal(minAmount);
  return min === '0'
    ? message('promo_description', locale, { bonus })
    : message('promo_description_from_amount', locale, { bonus, min });
}
