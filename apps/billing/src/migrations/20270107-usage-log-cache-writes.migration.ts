import { Migration } from '@mikro-orm/migrations';

/**
 * Each logged call's prompt-cache writes, apart by how long they are kept: 5 minutes and an hour
 * (charged at the model's two write prices, 20270106-cache-write-prices). The two never overlap: their
 * sum is all the call's writes. Calls logged before, and calls that wrote nothing, have 0 (a constant
 * default: PostgreSQL adds the columns without rewriting the table).
 */
export class UsageLogCacheWritesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table "usage_logs"
        add column "cache_write_5m_tokens" integer not null default 0,
        add column "cache_write_1h_tokens" integer not null default 0;`);
  }

  override async down(): Promise<void> {
    this.addSql(
      'alter table "usage_logs" drop column "cache_write_1h_tokens", drop column "cache_write_5m_tokens";',
    );
  }
}
