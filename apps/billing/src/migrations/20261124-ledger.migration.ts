import { Migration } from '@mikro-orm/migrations';

/** The append-only ledger; a trigger refuses updates and deletes so history cannot be rewritten. */
export class LedgerMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table "ledger_entries" (
        "id" bigserial primary key,
        "user_id" integer not null references "accounts" ("user_id"),
        "kind" text not null check ("kind" in ('usage', 'top_up', 'promo_bonus', 'admin_adjustment',
          'refund', 'affiliate_reward', 'affiliate_transfer', 'test_top_up')),
        "amount" bigint not null,
        "idempotency_key" text not null unique,
        "note" text not null default '',
        "created_at" timestamptz not null default now()
      );`);
    this.addSql('create index "ledger_entries_user_id_index" on "ledger_entries" ("user_id");');
    this.addSql(`
      create function "ledger_entries_append_only"() returns trigger language plpgsql as $$
      begin
        raise exception 'ledger_entries is append-only';
      end;
      $$;`);
    this.addSql(`
      create trigger "ledger_entries_append_only" before update or delete on "ledger_entries"
      for each row execute function "ledger_entries_append_only"();`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "ledger_entries";');
    this.addSql('drop function if exists "ledger_entries_append_only"();');
  }
}
