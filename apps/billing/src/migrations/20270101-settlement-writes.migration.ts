import { Migration } from '@mikro-orm/migrations';

/**
 * Less work per settled usage event (issue 17), nothing a query needs:
 * - `ledger_entries_user_id_index` is a prefix of `ledger_entries_user_id_created_at_index`, which
 *   serves every lookup by user (and the foreign key's checks on accounts) as well;
 * - the foreign key of `usage_logs.user_id` on accounts: settlement writes every log row in the
 *   statement that writes its ledger entry (same user, keyed by the event id) and refuses a batch
 *   whose log rows and entries differ, and the entry's own foreign key on accounts is checked, so
 *   the log row's check only repeated it, for every row. Accounts are never deleted.
 * The indexes of usage_logs stay: each serves a query (the log by user and by time, the call by
 * answer or request id, retention and the gauges by time, the unique event id of settlement).
 */
export class SettlementWritesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql('drop index "ledger_entries_user_id_index";');
    this.addSql('alter table "usage_logs" drop constraint "usage_logs_user_id_fkey";');
  }

  override async down(): Promise<void> {
    this.addSql(
      'alter table "usage_logs" add constraint "usage_logs_user_id_fkey" foreign key ("user_id") references "accounts" ("user_id");',
    );
    this.addSql('create index "ledger_entries_user_id_index" on "ledger_entries" ("user_id");');
  }
}
