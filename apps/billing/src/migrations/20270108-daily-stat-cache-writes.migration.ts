import { Migration } from '@mikro-orm/migrations';

/**
 * The daily rollup counts prompt-cache writes as the usage log keeps them: 5-minute and hour-long
 * writes apart (they are priced apart, so a client checking a day's cost needs both), beside the
 * cache reads (`cached_tokens`). A constant default: the columns come without rewriting the table.
 *
 * Rows from before are filled in from the usage log, which has kept the writes since
 * 20270107-usage-log-cache-writes: only log rows that wrote anything are read, and every one of them
 * is in its rollup row (one statement writes both). A day partly deleted by the log's retention
 * before this ran counts only the writes of its calls still logged; calls logged before 20270107 have
 * none to give, so days before it show no writes.
 */
export class DailyStatCacheWritesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table "usage_daily_stats"
        add column "cache_write_5m_tokens" bigint not null default 0,
        add column "cache_write_1h_tokens" bigint not null default 0;`);
    this.addSql(`
      update "usage_daily_stats" s
      set "cache_write_5m_tokens" = w."cache_write_5m_tokens",
        "cache_write_1h_tokens" = w."cache_write_1h_tokens"
      from (
        select "user_id", (("created_at" at time zone 'UTC') + interval '3 hours')::date as "day", "model",
          coalesce("token_id", 0) as "token_id", sum("cache_write_5m_tokens") as "cache_write_5m_tokens",
          sum("cache_write_1h_tokens") as "cache_write_1h_tokens"
        from "usage_logs"
        where "cache_write_5m_tokens" > 0 or "cache_write_1h_tokens" > 0
        group by 1, 2, 3, 4
      ) w
      where s."user_id" = w."user_id" and s."day" = w."day" and s."model" = w."model"
        and s."token_id" = w."token_id";`);
  }

  override async down(): Promise<void> {
    this.addSql(
      'alter table "usage_daily_stats" drop column "cache_write_1h_tokens", drop column "cache_write_5m_tokens";',
    );
  }
}
