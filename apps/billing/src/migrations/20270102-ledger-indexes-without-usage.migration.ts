import { Migration } from '@mikro-orm/migrations';

/**
 * Two index inserts fewer per settled usage event (issue 17): ledger entries are read by time, or by
 * user and time, only by the log, which shows every usage entry from usage_logs instead and so reads
 * the ledger for the other kinds alone (logs.repository.ts, `NOT_USAGE`). Usage entries, nearly every
 * row of the ledger, are left out of both indexes. What reads usage entries does not use them: the
 * audit sums every entry of every account, the idempotency key keeps its own unique index.
 */
export class LedgerIndexesWithoutUsageMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql('drop index "ledger_entries_created_at_index";');
    this.addSql('drop index "ledger_entries_user_id_created_at_index";');
    this.addSql(
      `create index "ledger_entries_created_at_index" on "ledger_entries" ("created_at") where "kind" <> 'usage';`,
    );
    this.addSql(
      `create index "ledger_entries_user_id_created_at_index" on "ledger_entries" ("user_id", "created_at") where "kind" <> 'usage';`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop index "ledger_entries_created_at_index";');
    this.addSql('drop index "ledger_entries_user_id_created_at_index";');
    this.addSql('create index "ledger_entries_created_at_index" on "ledger_entries" ("created_at");');
    this.addSql(
      'create index "ledger_entries_user_id_created_at_index" on "ledger_entries" ("user_id", "created_at");',
    );
  }
}
