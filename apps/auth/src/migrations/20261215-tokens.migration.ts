import { Migration } from '@mikro-orm/migrations';

/** API keys: one row per key, found by the HMAC of the key, the key itself only encrypted. */
export class TokensMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table "tokens" (
        "id" serial primary key,
        "user_id" integer not null references "users" ("id") on delete cascade,
        "name" text not null,
        "key_hash" text not null,
        "key_encrypted" text not null,
        "key_masked" text not null,
        "status" smallint not null default 1,
        "expired_time" bigint not null default -1,
        "remain_quota" bigint not null default 0,
        "unlimited_quota" boolean not null default false,
        "used_quota" bigint not null default 0,
        "model_limits_enabled" boolean not null default false,
        "model_limits" jsonb not null default '[]',
        "allow_ips" jsonb not null default '[]',
        "group" text not null default '',
        "created_at" timestamptz not null,
        "updated_at" timestamptz not null,
        "accessed_at" timestamptz null,
        constraint "tokens_key_hash_unique" unique ("key_hash")
      );`);
    this.addSql('create index "tokens_user_id_index" on "tokens" ("user_id", "id");');
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "tokens";');
  }
}
