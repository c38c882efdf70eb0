import { Migration } from '@mikro-orm/migrations';

/**
 * Accounts: personal access tokens (their hash only), linked OAuth accounts, and the usage events
 * already applied to API keys (so a redelivered event changes nothing).
 */
export class AccountsMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table "users"
        add column "access_token_hash" text null,
        add column "github_id" text null,
        add column "google_id" text null,
        add column "discord_id" text null;`);
    this.addSql(`
      alter table "users"
        add constraint "users_access_token_hash_unique" unique ("access_token_hash"),
        add constraint "users_github_id_unique" unique ("github_id"),
        add constraint "users_google_id_unique" unique ("google_id"),
        add constraint "users_discord_id_unique" unique ("discord_id");`);
    this.addSql(`
      create table "applied_usage_events" (
        "event_id" uuid primary key,
        "applied_at" timestamptz not null default now()
      );`);
    this.addSql(
      'create index "tokens_expiring_index" on "tokens" ("expired_time") where "status" = 1 and "expired_time" <> -1;',
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists "tokens_expiring_index";');
    this.addSql('drop table if exists "applied_usage_events";');
    this.addSql(`
      alter table "users"
        drop column "access_token_hash",
        drop column "github_id",
        drop column "google_id",
        drop column "discord_id";`);
  }
}
