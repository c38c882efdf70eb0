import { Migration } from '@mikro-orm/migrations';

/**
 * One row per currency pair: the Central Bank's last rate (and when it was fetched or last failed)
 * beside an admin override. The rate in force is chosen when read, so neither overwrites the other.
 */
export class ExchangeRatesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table "exchange_rates" (
        "pair" text primary key,
        "bank_rate" numeric(18,6) null check ("bank_rate" > 0),
        "bank_rate_date" text null,
        "bank_fetched_at" timestamptz null,
        "bank_failed_at" timestamptz null,
        "override_rate" numeric(18,6) null check ("override_rate" > 0),
        "override_set_at" timestamptz null,
        "override_set_by" integer null,
        "updated_at" timestamptz not null default now()
      );`);
    this.addSql(`insert into "exchange_rates" ("pair") values ('USD_RUB');`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "exchange_rates";');
  }
}
