import { Migration } from '@mikro-orm/migrations';

/**
 * The ledger's foreign key on accounts goes (issue 17), as the usage log's did (20270101-settlement-writes).
 * Its check ran once per entry: a lookup of the account, planned once per connection and kept. A
 * connection that planned it while accounts had a page or two (a new deployment, the bench's first
 * scenarios) scanned the whole accounts table for every entry until accounts was analyzed again. In
 * the bench's full run that doubled PostgreSQL's work per settled event (0.08 ms against 0.035) and
 * grew it as the accounts' dead versions grew (bench/ANALYSIS.md, H54). Even with a good plan it
 * was ~12 % of the settlement statement (H36).
 * What the key guaranteed, its two writers guarantee themselves: the settlement statement opens
 * every account it writes entries for in the same statement, and LedgerService.post locks every
 * account first and refuses a posting to a user without one. Accounts are never deleted.
 */
export class LedgerWithoutAccountCheckMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "ledger_entries" drop constraint "ledger_entries_user_id_fkey";');
  }

  override async down(): Promise<void> {
    this.addSql(
      'alter table "ledger_entries" add constraint "ledger_entries_user_id_fkey" foreign key ("user_id") references "accounts" ("user_id");',
    );
  }
}
