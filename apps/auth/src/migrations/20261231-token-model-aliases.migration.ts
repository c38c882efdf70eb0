import { Migration } from '@mikro-orm/migrations';

/** A key's model aliases: the name a client asks for → the model served. */
export class TokenModelAliasesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "tokens" add column "model_aliases" jsonb not null default '{}';`);
  }

  override async down(): Promise<void> {
    this.addSql('alter table "tokens" drop column "model_aliases";');
  }
}
