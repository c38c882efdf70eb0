import { Migration } from '@mikro-orm/migrations';

/**
 * The usage log's primary key is its event id (issue 17): one index entry fewer for every settled
 * usage event (five indexes a row, not six counting the unique event id as its own), and a WAL record
 * fewer. The event id already was the row's key in every sense that matters: its unique index decides
 * which events settlement charges (`on conflict ("event_id")`), and it now is that index.
 * `id` stays, numbered by its sequence as before, as the log's order within one instant: the cursor
 * `(created_at, id)` and the lines' ids read it through the (created_at) and (user_id, created_at)
 * indexes, never through an index on id alone; retention deletes by event id.
 * On a table that has rows the key's index is built again once (the unique constraint's index cannot
 * become the primary key's while the old key holds its name), under the migration's lock.
 */
export class UsageLogKeyedByEventMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "usage_logs" drop constraint "usage_logs_pkey";');
    this.addSql('alter table "usage_logs" drop constraint "usage_logs_event_id_key";');
    this.addSql('alter table "usage_logs" add constraint "usage_logs_pkey" primary key ("event_id");');
  }

  override async down(): Promise<void> {
    this.addSql('alter table "usage_logs" drop constraint "usage_logs_pkey";');
    this.addSql('alter table "usage_logs" add constraint "usage_logs_pkey" primary key ("id");');
    this.addSql('alter table "usage_logs" add constraint "usage_logs_event_id_key" unique ("event_id");');
  }
}
