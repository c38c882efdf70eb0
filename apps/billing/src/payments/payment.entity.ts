import { BigIntType, Entity, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import type { PaymentProviderName, PaymentStatus } from '@tollgate/contracts';

/** A top-up in rubles and the quota it buys at the rate of its creation. */
@Entity({ tableName: 'payments' })
export class Payment {
  @PrimaryKey({ type: new BigIntType('number') })
  id!: number;

  @Property({ type: 'integer' })
  userId!: number;

  @Property({ type: 'text' })
  provider!: PaymentProviderName;

  @Property({ type: 'text' })
  status: Opt<PaymentStatus> = 'pending';

  /** Rubles, NUMERIC as a decimal string. */
  @Property({ type: 'decimal', columnType: 'numeric(12,2)' })
  amount!: string;

  @Property({ type: 'text' })
  currency: Opt<'RUB'> = 'RUB';

  /** The rate the quota was computed with. */
  @Property({ type: 'decimal', columnType: 'numeric(18,6)' })
  usdRub!: string;

  @Property({ type: new BigIntType('number') })
  quota!: number;

  /** The promo code's bonus; 0 when the code could not be consumed after all. */
  @Property({ type: new BigIntType('number') })
  bonusQuota: Opt<number> = 0;

  @Property({ type: 'integer', nullable: true })
  promoId: number | null = null;

  /** Where the provider sends the receipt. */
  @Property({ type: 'text' })
  email!: string;

  /** Sent as the provider's Idempotence-Key, so a retried creation is one payment there too. */
  @Property({ type: 'uuid' })
  idempotenceKey!: string;

  @Property({ type: 'text', nullable: true })
  providerPaymentId: string | null = null;

  @Property({ type: 'text', nullable: true })
  payUrl: string | null = null;

  /** Rubles refunded so far (by operators and providers). */
  @Property({ type: 'decimal', columnType: 'numeric(12,2)' })
  refundedAmount: Opt<string> = '0';

  /** Quota taken back from the balance by those refunds. */
  @Property({ type: new BigIntType('number') })
  refundedQuota: Opt<number> = 0;

  @Property({ type: 'datetime' })
  createdAt: Opt<Date> = new Date();

  @Property({ type: 'datetime' })
  updatedAt: Opt<Date> = new Date();

  @Property({ type: 'datetime', nullable: true })
  completedAt: Date | null = null;
}
