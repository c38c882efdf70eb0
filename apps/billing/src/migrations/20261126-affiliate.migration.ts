import { Migration } from '@mikro-orm/migrations';

/**
 * Who invited whom (from identity.user) and the append-only affiliate ledger: an account's
 * aff_quota is the sum of its entries, as its quota is the sum of its ledger entries.
 */
export class AffiliateMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table "affiliate_links" (
        "user_id" integer primary key,
        "inviter_id" integer null,
        "updated_at" timestamptz not null default now()
      );`);
    this.addSql(`
      create table "affiliate_entries" (
        "id" bigserial primary key,
        "user_id" integer not null references "accounts" ("user_id"),
        "kind" text not null check ("kind" in ('reward', 'transfer')),
        "amount" bigint not null,
        "idempotency_key" text not null unique,
        "invitee_id" integer null,
        "payment_id" bigint null,
        "created_at" timestamptz not null default now()
      );`);
    this.addSql('create index "affiliate_entries_user_id_index" on "affiliate_entries" ("user_id");');
    this.addSql(`
      create function "affiliate_entries_append_only"() returns trigger language plpgsql as $$
      begin
        raise exception 'affiliate_entries is append-only';
      end;
      $$;`);
    this.addSql(`
      create trigger "affiliate_entries_append_only" before update or delete on "affiliate_entries"
      for each row execute function "affiliate_entries_append_only"();`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "affiliate_entries";');
    this.addSql('drop function if exists "affiliate_entries_append_only"();');
    this.addSql('drop table if exists "affiliate_links";');
  }
}
