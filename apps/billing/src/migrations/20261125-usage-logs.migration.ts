import { Migration } from '@mikro-orm/migrations';

/** One row per settled request; event_id is unique so a redelivered usage.recorded is written once. */
export class UsageLogsMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table "usage_logs" (
        "id" bigserial primary key,
        "event_id" uuid not null unique,
        "created_at" timestamptz not null,
        "user_id" integer not null references "accounts" ("user_id"),
        "token_id" integer null,
        "token_name" text not null,
        "channel_id" integer null,
        "model" text not null,
        "upstream_model" text not null,
        "prompt_tokens" integer not null,
        "completion_tokens" integer not null,
        "cached_tokens" integer not null,
        "quota" bigint not null,
        "latency_ms" integer not null,
        "ttft_ms" integer null,
        "is_stream" boolean not null,
        "status" text not null check ("status" in ('success', 'client_aborted', 'upstream_error')),
        "group" text not null,
        "request_id" text not null
      );`);
    this.addSql(
      'create index "usage_logs_user_id_created_at_index" on "usage_logs" ("user_id", "created_at");',
    );
    this.addSql('create index "usage_logs_created_at_index" on "usage_logs" ("created_at");');
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "usage_logs";');
  }
}
