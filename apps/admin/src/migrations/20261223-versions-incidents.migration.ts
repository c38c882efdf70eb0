import { Migration } from '@mikro-orm/migrations';

/** The release notes and the incident log the web client shows. */
export class VersionsIncidentsMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table "versions" (
        "id" serial primary key,
        "version" text not null,
        "title" text not null,
        "content" text not null default '',
        "release_date" date not null,
        "created_at" timestamptz not null,
        "updated_at" timestamptz not null,
        constraint "versions_version_unique" unique ("version")
      );`);
    this.addSql(`
      create table "incidents" (
        "id" serial primary key,
        "title" text not null,
        "description" text not null default '',
        "status" text not null check ("status" in ('investigating', 'identified', 'monitoring', 'resolved')),
        "severity" text not null check ("severity" in ('minor', 'major', 'critical')),
        "started_at" timestamptz not null,
        "resolved_at" timestamptz null,
        "created_at" timestamptz not null,
        "updated_at" timestamptz not null
      );`);
    this.addSql('create index "incidents_started_at_index" on "incidents" ("started_at");');
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "incidents";');
    this.addSql('drop table if exists "versions";');
  }
}
