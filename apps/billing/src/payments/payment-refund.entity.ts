import { BigIntType, Entity, PrimaryKey, Property, type Opt } from '@mikro-orm/core';

/** One refund of a payment; its ledger entry is keyed by `refundKey`, so it is posted once. */
@Entity({ tableName: 'payment_refunds' })
export class PaymentRefund {
  @PrimaryKey({ type: new BigIntType('number'), autoincrement: true })
  id!: number;

  @Property({ type: 'integer' })
  paymentId!: number;

  /** Rubles. */
  @Property({ type: 'decimal', columnType: 'numeric(12,2)' })
  amount!: string;

  /** Quota units taken back from the balance. */
  @Property({ type: new BigIntType('number') })
  quota!: number;

  @Property({ type: 'text' })
  reason: Opt<string> = '';

  @Property({ type: 'text' })
  source!: 'operator' | 'provider';

  @Property({ type: 'integer', nullable: true })
  actorId!: number | null;

  /** `operator:<idempotency key>` or `provider:<the provider's refund id>`. */
  @Property({ type: 'text', unique: true })
  refundKey!: string;

  @Property({ type: 'text', nullable: true })
  providerRefundId!: string | null;

  @Property({ type: 'datetime' })
  createdAt: Opt<Date> = new Date();
}
