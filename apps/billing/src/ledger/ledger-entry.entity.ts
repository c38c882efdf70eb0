import { BigIntType, Entity, Enum, PrimaryKey, Property, type Opt } from '@mikro-orm/core';

/** Why a balance changed. */
export enum LedgerEntryKind {
  Usage = 'usage',
  TopUp = 'top_up',
  PromoBonus = 'promo_bonus',
  AdminAdjustment = 'admin_adjustment',
  Refund = 'refund',
  AffiliateReward = 'affiliate_reward',
  AffiliateTransfer = 'affiliate_transfer',
  TestTopUp = 'test_top_up',
  /** QuotaForNewUser, credited when billing opens a new user's account. */
  SignupBonus = 'signup_bonus',
}

/**
 * One change of a user's balance, in quota units (negative for a debit). Append-only: rows are never
 * updated or deleted, and an account's quota always equals the sum of its entries.
 */
@Entity({ tableName: 'ledger_entries' })
export class LedgerEntry {
  @PrimaryKey({ type: new BigIntType('number') })
  id!: number;

  @Property({ type: 'integer' })
  userId!: number;

  @Enum({ items: () => LedgerEntryKind, type: 'text' })
  kind!: LedgerEntryKind;

  @Property({ type: new BigIntType('number') })
  amount!: number;

  /** Unique: the same usage event, payment or request posted twice is one entry. */
  @Property({ type: 'text', unique: true })
  idempotencyKey!: string;

  @Property({ type: 'text' })
  note: Opt<string> = '';

  @Property({ type: 'datetime' })
  createdAt: Opt<Date> = new Date();
}
