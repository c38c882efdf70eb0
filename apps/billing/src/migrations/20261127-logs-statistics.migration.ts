import { Migration } from '@mikro-orm/migrations';

/**
 * What the log and statistics APIs read: usernames from identity.user (billing owns no users),
 * daily rollups per user, Moscow day, model and token (kept by the usage consumer; back-filled here
 * from the usage rows written before), and the indexes the log filters need.
 */
export class LogsStatisticsMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table "usernames" (
        "user_id" integer primary key,
        "username" text not null,
        "updated_at" bigint not null
      );`);
    this.addSql('create index "usernames_username_index" on "usernames" ("username");');

    // token_id 0 stands for "no token" (session calls such as the chat) so it can be part of the key.
    this.addSql(`
      create table "usage_daily_stats" (
        "user_id" integer not null,
        "day" date not null,
        "model" text not null,
        "token_id" integer not null,
        "requests" bigint not null,
        "prompt_tokens" bigint not null,
        "completion_tokens" bigint not null,
        "cached_tokens" bigint not null,
        "quota" bigint not null,
        primary key ("user_id", "day", "model", "token_id")
      );`);
    this.addSql('create index "usage_daily_stats_day_index" on "usage_daily_stats" ("day");');
    this.addSql(`
      insert into "usage_daily_stats"
        ("user_id", "day", "model", "token_id", "requests", "prompt_tokens", "completion_tokens",
         "cached_tokens", "quota")
      select "user_id", (("created_at" at time zone 'UTC') + interval '3 hours')::date, "model",
        coalesce("token_id", 0), count(*), sum("prompt_tokens"), sum("completion_tokens"),
        sum("cached_tokens"), sum("quota")
      from "usage_logs"
      group by 1, 2, 3, 4;`);

    this.addSql('create index "ledger_entries_created_at_index" on "ledger_entries" ("created_at");');
    this.addSql(
      'create index "ledger_entries_user_id_created_at_index" on "ledger_entries" ("user_id", "created_at");',
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists "ledger_entries_user_id_created_at_index";');
    this.addSql('drop index if exists "ledger_entries_created_at_index";');
    this.addSql('drop table if exists "usage_daily_stats";');
    this.addSql('drop table if exists "usernames";');
  }
}
