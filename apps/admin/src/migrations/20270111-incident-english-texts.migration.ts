import { Migration } from '@mikro-orm/migrations';

/**
 * An incident's English title and description beside the default (Russian) ones; empty means
 * none. Its timeline updates keep their English text in the `updates` document (`text_en`).
 */
export class IncidentEnglishTextsMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "incidents" add column "title_en" text not null default '';`);
    this.addSql(`alter table "incidents" add column "description_en" text not null default '';`);
  }

  override async down(): Promise<void> {
    this.addSql('alter table "incidents" drop column "description_en";');
    this.addSql('alter table "incidents" drop column "title_en";');
  }
}
