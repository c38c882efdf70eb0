import { Migration } from '@mikro-orm/migrations';

/** Registration: consents with their time, invite codes, settings, and usernames unique regardless of case. */
export class RegistrationMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table "users"
        add column "aff_code" text null,
        add column "setting" text not null default '',
        add column "terms_accepted_at" timestamptz null,
        add column "data_processing_accepted_at" timestamptz null;`);
    this.addSql('alter table "users" add constraint "users_aff_code_unique" unique ("aff_code");');
    this.addSql('create unique index "users_username_lower_unique" on "users" (lower("username"));');
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists "users_username_lower_unique";');
    this.addSql(`
      alter table "users"
        drop constraint if exists "users_aff_code_unique",
        drop column "aff_code",
        drop column "setting",
        drop column "terms_accepted_at",
        drop column "data_processing_accepted_at";`);
  }
}
