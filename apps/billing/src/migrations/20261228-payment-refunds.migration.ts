import { Migration } from '@mikro-orm/migrations';

/**
 * Partial refunds: each refund of a payment is a row (an operator's, keyed by its idempotency key,
 * or one the provider reported, keyed by the provider's refund id), and the payment keeps the
 * totals refunded so far.
 */
export class PaymentRefundsMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table "payments"
        add column "refunded_amount" numeric(12,2) not null default 0,
        add column "refunded_quota" bigint not null default 0`);
    this.addSql(`
      create table "payment_refunds" (
        "id" bigserial primary key,
        "payment_id" integer not null references "payments" ("id"),
        "amount" numeric(12,2) not null check ("amount" > 0),
        "quota" bigint not null check ("quota" >= 0),
        "reason" text not null default '',
        "source" text not null check ("source" in ('operator', 'provider')),
        "actor_id" integer null,
        "refund_key" text not null unique,
        "provider_refund_id" text null unique,
        "created_at" timestamptz not null default now()
      )`);
    this.addSql('create index "payment_refunds_payment_index" on "payment_refunds" ("payment_id", "id")');
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "payment_refunds"');
    this.addSql('alter table "payments" drop column "refunded_amount", drop column "refunded_quota"');
  }
}
