import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { ErrorCode } from '@tollgate/contracts';
import { AppException, InjectServiceConfig, type Locale } from '@tollgate/platform';
import type { BillingConfig } from '../config';
import { localizedException } from '../i18n/messages';
import { PromoCode } from './promo-code.entity';
import { belowMinAmount, promoRefusal } from './promo-rules';
import { PromoUsageRepository } from './promo-usage.repository';

/**
 * Uses of promo codes by payments, always inside the payment's transaction and with the code's row
 * locked, so concurrent payments are counted one after another: a code is reserved when a payment
 * is created, consumed when it succeeds and released when it fails. Neither reservations nor
 * consumptions ever exceed max_uses or per_user_limit.
 */
@Injectable()
export class PromoRedemptionsService {
  constructor(
    private readonly usage: PromoUsageRepository,
    @InjectServiceConfig() private readonly config: BillingConfig,
  ) {}

  /** Locks the code and checks it for this payment; throws invalidPromo when it cannot be used. */
  async claim(
    em: EntityManager,
    code: string,
    userId: number,
    amount: string,
    now: Date,
    locale: Locale,
  ): Promise<PromoCode> {
    const [found] = await em.find(
      PromoCode,
      { code: { $ilike: escapeLike(code) }, deletedAt: null },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
    if (!found) throw invalidPromo(locale);
    const refusal = promoRefusal(await this.usage.usability(em, found, userId, now), now);
    if (refusal || belowMinAmount(amount, found.minAmount)) throw invalidPromo(locale);
    return found;
  }

  /** Records the reservation of a claimed code by a payment just created. */
  async reserve(
    em: EntityManager,
    promo: PromoCode,
    userId: number,
    paymentId: number,
    now: Date,
  ): Promise<void> {
    const until = new Date(now.getTime() + this.config.PROMO_RESERVATION_MINUTES * 60_000);
    await em.execute(
      `insert into promo_redemptions (payment_id, promo_id, user_id, status, reserved_until)
       values (?, ?, ?, 'reserved', ?)`,
      [paymentId, promo.id, userId, until],
    );
  }

  /**
   * Turns the payment's reservation into a use. When the code has meanwhile been used up (a
   * reservation that had lapsed), the reservation is released instead and false tells the
   * caller to credit no bonus.
   */
  async consume(em: EntityManager, paymentId: number): Promise<boolean> {
    const redemption = await this.reservationOf(em, paymentId);
    if (!redemption) return false;
    const promo = await em.findOneOrFail(
      PromoCode,
      { id: redemption.promo_id },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
    const consumedByUser = await this.usage.consumedByUser(em, promo.id, redemption.user_id);
    const fits =
      (promo.maxUses === 0 || promo.usedCount < promo.maxUses) &&
      (promo.perUserLimit === 0 || consumedByUser < promo.perUserLimit);
    await this.setStatus(em, paymentId, fits ? 'consumed' : 'released');
    if (fits) {
      promo.usedCount += 1;
      promo.updatedAt = new Date();
      await em.flush();
    }
    return fits;
  }

  /** Gives the payment's reservation back (the payment failed or was canceled). */
  async release(em: EntityManager, paymentId: number): Promise<void> {
    if (await this.reservationOf(em, paymentId)) await this.setStatus(em, paymentId, 'released');
  }

  private async reservationOf(em: EntityManager, paymentId: number) {
    const [row] = await em.execute<{ promo_id: number; user_id: number }[]>(
      `select promo_id, user_id from promo_redemptions where payment_id = ? and status = 'reserved' for update`,
      [paymentId],
    );
    return row;
  }

  private async setStatus(
    em: EntityManager,
    paymentId: number,
    status: 'consumed' | 'released',
  ): Promise<void> {
    await em.execute(`update promo_redemptions set status = ?, updated_at = now() where payment_id = ?`, [
      status,
      paymentId,
    ]);
  }
}

/** The one answer for a code that cannot be used, whatever the reason. */
export const invalidPromo = (locale: Locale): AppException =>
  localizedException(ErrorCode.ValidationFailed, 'promo_invalid', locale);

/** `$ilike` takes a pattern: codes are letters, digits, `_` and `-`, and `_` must match only itself. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}
