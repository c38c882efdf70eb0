import { Migration } from '@mikro-orm/migrations';

/** The audit trail of operators' actions, one row per audit.recorded event. */
export class AuditMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table "audit_entries" (
        "id" bigserial primary key,
        "event_id" uuid not null unique,
        "service" text not null,
        "actor_id" integer not null,
        "actor_role" integer not null,
        "action" text not null,
        "target_kind" text not null,
        "target_id" text not null,
        "changed" jsonb not null default '[]'::jsonb,
        "before" jsonb null,
        "after" jsonb null,
        "request_id" text null,
        "occurred_at" timestamptz not null,
        "recorded_at" timestamptz not null default now()
      );`);
    this.addSql(
      'create index "audit_entries_occurred_at_index" on "audit_entries" ("occurred_at" desc, "id" desc);',
    );
    this.addSql(
      'create index "audit_entries_actor_index" on "audit_entries" ("actor_id", "occurred_at" desc);',
    );
    this.addSql(
      'create index "audit_entries_target_index" on "audit_entries" ("target_kind", "target_id", "occurred_at" desc);',
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "audit_entries";');
  }
}
