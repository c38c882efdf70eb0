import { Migration } from '@mikro-orm/migrations';

/**
 * Recorded usage events are forgotten after a month (ChannelUsageRepository.forgetBefore): a BRIN
 * index finds the old ones by `recorded_at`, which grows with insertion order, where the B-tree took
 * an index entry, its WAL record and its pages' buffer hits for every relayed call (auth's applied
 * usage events did the same in its migration 20270103; bench/ANALYSIS.md, H66).
 */
export class ChannelUsageEventsBrinMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql('drop index if exists "channel_usage_events_recorded_at_index";');
    this.addSql(
      'create index "channel_usage_events_recorded_at_brin" on "channel_usage_events" using brin ("recorded_at");',
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists "channel_usage_events_recorded_at_brin";');
    this.addSql(
      'create index "channel_usage_events_recorded_at_index" on "channel_usage_events" ("recorded_at");',
    );
  }
}
