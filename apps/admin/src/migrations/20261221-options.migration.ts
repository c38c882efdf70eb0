import { Migration } from '@mikro-orm/migrations';

/** Runtime settings by key (new-api's options), published on catalog.option. */
export class OptionsMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table "options" (
        "key" text primary key,
        "value" text not null,
        "updated_at" timestamptz not null
      );`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "options";');
  }
}
