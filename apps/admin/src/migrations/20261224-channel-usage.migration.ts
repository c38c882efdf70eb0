import { Migration } from '@mikro-orm/migrations';

/** The usage events already added to channels' used_quota, so a redelivered event adds nothing. */
export class ChannelUsageMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table "channel_usage_events" (
        "event_id" uuid primary key,
        "recorded_at" timestamptz not null default now()
      );`);
    this.addSql(
      'create index "channel_usage_events_recorded_at_index" on "channel_usage_events" ("recorded_at");',
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "channel_usage_events";');
  }
}
