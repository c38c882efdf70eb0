import { Migration } from '@mikro-orm/migrations';

/** Upstream channels: relay's routing table, published whole on catalog.channel. */
export class ChannelsMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table "channels" (
        "id" serial primary key,
        "type" smallint not null,
        "name" text not null,
        "key_encrypted" text not null,
        "key_masked" text not null,
        "base_url" text not null default '',
        "models" jsonb not null default '[]',
        "model_mapping" jsonb not null default '{}',
        "groups" jsonb not null default '["default"]',
        "priority" integer not null default 0,
        "weight" integer not null default 0 check ("weight" >= 0),
        "tag" text not null default '',
        "status" smallint not null default 1 check ("status" in (1, 2, 3)),
        "status_reason" text not null default '',
        "status_changed_at" timestamptz null,
        "auto_ban" boolean not null default true,
        "test_model" text not null default '',
        "max_concurrency" integer not null default 0 check ("max_concurrency" >= 0),
        "response_time" integer not null default 0,
        "tested_at" timestamptz null,
        "used_quota" bigint not null default 0,
        "created_at" timestamptz not null,
        "updated_at" timestamptz not null
      );`);
    this.addSql('create index "channels_status_index" on "channels" ("status");');
    this.addSql('create index "channels_tag_index" on "channels" ("tag");');
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "channels";');
  }
}
