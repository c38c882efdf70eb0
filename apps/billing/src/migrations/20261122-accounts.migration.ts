import { Migration } from '@mikro-orm/migrations';

export class AccountsMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table "accounts" (
        "user_id" integer primary key,
        "quota" bigint not null default 0,
        "used_quota" bigint not null default 0,
        "request_count" bigint not null default 0,
        "aff_quota" bigint not null default 0,
        "aff_history_quota" bigint not null default 0,
        "version" bigint not null default 0,
        "created_at" timestamptz not null default now(),
        "updated_at" timestamptz not null default now()
      );`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "accounts";');
  }
}
