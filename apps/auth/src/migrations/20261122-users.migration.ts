import { Migration } from '@mikro-orm/migrations';

export class UsersMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table "users" (
        "id" serial primary key,
        "username" text not null,
        "password_hash" text null,
        "display_name" text not null,
        "email" text null,
        "role" smallint not null default 1,
        "status" smallint not null default 1,
        "group" text not null default 'default',
        "inviter_id" integer null,
        "created_at" timestamptz not null default now(),
        "updated_at" timestamptz not null default now(),
        "deleted_at" timestamptz null,
        constraint "users_username_unique" unique ("username"),
        constraint "users_email_unique" unique ("email")
      );`);
    this.addSql('create index "users_inviter_id_index" on "users" ("inviter_id");');
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "users";');
  }
}
