import { Migration } from '@mikro-orm/migrations';

/**
 * Per-user "sessions valid after" mark (epoch ms): a password change or reset sets it, and a
 * browser session begun before it no longer resolves. Null until the first such change.
 */
export class SessionsValidAfterMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "users" add column "sessions_valid_after" bigint null;');
  }

  override async down(): Promise<void> {
    this.addSql('alter table "users" drop column "sessions_valid_after";');
  }
}
