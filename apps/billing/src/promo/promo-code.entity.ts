import { Entity, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import type { PromoType } from '@tollgate/contracts';

/** A promo code. Unique case-insensitively among codes not deleted; `usedCount` counts consumed uses. */
@Entity({ tableName: 'promo_codes' })
export class PromoCode {
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Property({ type: 'text' })
  code!: string;

  @Property({ type: 'text' })
  type!: PromoType;

  /** Percent or rubles, NUMERIC as a decimal string. */
  @Property({ type: 'decimal', columnType: 'numeric(11,2)' })
  value!: string;

  /** 0 = unlimited. */
  @Property({ type: 'integer' })
  maxUses: Opt<number> = 0;

  /** 0 = unlimited. */
  @Property({ type: 'integer' })
  perUserLimit: Opt<number> = 1;

  @Property({ type: 'decimal', columnType: 'numeric(12,2)' })
  minAmount: Opt<string> = '0';

  @Property({ type: 'datetime', nullable: true })
  startsAt: Date | null = null;

  @Property({ type: 'datetime', nullable: true })
  expiresAt: Date | null = null;

  @Property({ type: 'boolean' })
  active: Opt<boolean> = true;

  @Property({ type: 'integer' })
  usedCount: Opt<number> = 0;

  /** Deleted codes stay for the payments that used them. */
  @Property({ type: 'datetime', nullable: true })
  deletedAt: Date | null = null;

  @Property({ type: 'datetime' })
  createdAt: Opt<Date> = new Date();

  @Property({ type: 'datetime' })
  updatedAt: Opt<Date> = new Date();
}
