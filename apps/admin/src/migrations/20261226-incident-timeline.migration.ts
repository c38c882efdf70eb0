import { Migration } from '@mikro-orm/migrations';

/**
 * What the public status page needs of an incident: the components it affects and its timeline of
 * updates. An incident logged before this gets a timeline of one update: its status as it stands.
 */
export class IncidentTimelineMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "incidents" add column "components" jsonb not null default '[]';`);
    this.addSql(`alter table "incidents" add column "updates" jsonb not null default '[]';`);
    this.addSql(`
      update "incidents" set "updates" = jsonb_build_array(jsonb_build_object(
        'status', "status", 'text', '', 'created_at', extract(epoch from "updated_at")::bigint));`);
    this.addSql('create index "incidents_resolved_at_index" on "incidents" ("resolved_at");');
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists "incidents_resolved_at_index";');
    this.addSql('alter table "incidents" drop column "updates";');
    this.addSql('alter table "incidents" drop column "components";');
  }
}
