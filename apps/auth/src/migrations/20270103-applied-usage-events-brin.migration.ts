import { Migration } from '@mikro-orm/migrations';

/**
 * Applied usage events are forgotten after a month (TokenExpirySweeper): a BRIN index finds the old
 * ones by `applied_at`, which grows with insertion order, at a fraction of a B-tree's cost per insert
 * (one per relayed call).
 */
export class AppliedUsageEventsBrinMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create index "applied_usage_events_applied_at_brin" on "applied_usage_events" using brin ("applied_at");',
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists "applied_usage_events_applied_at_brin";');
  }
}
