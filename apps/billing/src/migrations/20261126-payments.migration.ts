import { Migration } from '@mikro-orm/migrations';

/**
 * Promo codes, payments and the promo redemptions that tie them together. A code is unique
 * case-insensitively among the codes not deleted; a provider payment id belongs to one payment.
 */
export class PaymentsMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table "promo_codes" (
        "id" serial primary key,
        "code" text not null,
        "type" text not null check ("type" in ('percent', 'fixed')),
        "value" numeric(11,2) not null check ("value" > 0),
        "max_uses" integer not null default 0 check ("max_uses" >= 0),
        "per_user_limit" integer not null default 1 check ("per_user_limit" >= 0),
        "min_amount" numeric(12,2) not null default 0 check ("min_amount" >= 0),
        "starts_at" timestamptz null,
        "expires_at" timestamptz null,
        "active" boolean not null default true,
        "used_count" integer not null default 0 check ("used_count" >= 0),
        "deleted_at" timestamptz null,
        "created_at" timestamptz not null default now(),
        "updated_at" timestamptz not null default now(),
        check ("max_uses" = 0 or "used_count" <= "max_uses")
      );`);
    this.addSql(
      'create unique index "promo_codes_code_unique" on "promo_codes" (lower("code")) where "deleted_at" is null;',
    );
    this.addSql(`
      create table "payments" (
        "id" bigserial primary key,
        "user_id" integer not null,
        "provider" text not null check ("provider" in ('yookassa', 'crypto', 'test')),
        "status" text not null check ("status" in ('pending', 'success', 'failed', 'canceled', 'refunded', 'test_success')),
        "amount" numeric(12,2) not null check ("amount" > 0),
        "currency" text not null default 'RUB',
        "usd_rub" numeric(18,6) not null check ("usd_rub" > 0),
        "quota" bigint not null check ("quota" >= 0),
        "bonus_quota" bigint not null default 0 check ("bonus_quota" >= 0),
        "promo_id" integer null references "promo_codes" ("id"),
        "email" text not null,
        "idempotence_key" uuid not null unique,
        "provider_payment_id" text null,
        "pay_url" text null,
        "created_at" timestamptz not null default now(),
        "updated_at" timestamptz not null default now(),
        "completed_at" timestamptz null
      );`);
    this.addSql(
      'create unique index "payments_provider_payment_id_unique" on "payments" ("provider", "provider_payment_id") where "provider_payment_id" is not null;',
    );
    this.addSql('create index "payments_user_id_id_index" on "payments" ("user_id", "id");');
    this.addSql(`
      create table "promo_redemptions" (
        "payment_id" bigint primary key references "payments" ("id"),
        "promo_id" integer not null references "promo_codes" ("id"),
        "user_id" integer not null,
        "status" text not null check ("status" in ('reserved', 'consumed', 'released')),
        "reserved_until" timestamptz not null,
        "created_at" timestamptz not null default now(),
        "updated_at" timestamptz not null default now()
      );`);
    this.addSql(
      'create index "promo_redemptions_promo_id_status_index" on "promo_redemptions" ("promo_id", "status");',
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "promo_redemptions";');
    this.addSql('drop table if exists "payments";');
    this.addSql('drop table if exists "promo_codes";');
  }
}
