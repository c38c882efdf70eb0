import type { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import type { PromoCode } from './promo-code.entity';
import type { PromoUsability } from './promo-rules';

interface HeldRow {
  held_uses: string;
  held_by_user: string;
}

/** The counts behind a code's limits: consumed uses plus reservations that have not lapsed. */
@Injectable()
export class PromoUsageRepository {
  async usability(em: EntityManager, promo: PromoCode, userId: number, now: Date): Promise<PromoUsability> {
    const [row] = await em.execute<HeldRow[]>(
      `select
         (select count(*) from promo_redemptions r
           where r.promo_id = ? and r.status = 'reserved' and r.reserved_until > ?) + ? as held_uses,
         (select count(*) from promo_redemptions r
           where r.promo_id = ? and r.user_id = ?
             and (r.status = 'consumed' or (r.status = 'reserved' and r.reserved_until > ?))) as held_by_user`,
      [promo.id, now, promo.usedCount, promo.id, userId, now],
    );
    return {
      active: promo.active,
      deleted: promo.deletedAt !== null,
      startsAt: promo.startsAt,
      expiresAt: promo.expiresAt,
      maxUses: promo.maxUses,
      perUserLimit: promo.perUserLimit,
      heldUses: Number(row!.held_uses),
      heldByUser: Number(row!.held_by_user),
    };
  }

  /** Consumed uses only: what consuming one more is checked against, once reservations no longer matter. */
  async consumedByUser(em: EntityManager, promoId: number, userId: number): Promise<number> {
    const [row] = await em.execute<{ count: string }[]>(
      `select count(*) as count from promo_redemptions where promo_id = ? and user_id = ? and status = 'consumed'`,
      [promoId, userId],
    );
    return Number(row!.count);
  }
}
