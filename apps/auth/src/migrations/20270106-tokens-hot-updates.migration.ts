import { Migration } from '@mikro-orm/migrations';

/**
 * Room on every page of API keys (issue 17): the usage consumer updates each key once per batch it
 * was used in (used and remaining quota, last use), none of them an indexed column, so a new version
 * that fits on its row's page is a HOT update: no entry in the table's indexes, and the old version
 * is pruned on that page without vacuum. On full pages 19–25 % of these updates were not HOT in the
 * usage-consumers bench (1,000 keys; 100 % with the room), each adding an entry to each of the
 * table's indexes (three; four for a key that expires) and leaving as many dead ones
 * (bench/ANALYSIS.md, H66; billing's accounts did the same in its 20270105). The table takes twice
 * the pages, which a batch of a few events pays while the planner still reads a small table whole.
 * Pages written from now on keep half their room; rows on pages that are full today move to such a
 * page at their next update that does not fit.
 */
export class TokensHotUpdatesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "tokens" set (fillfactor = 50);');
  }

  override async down(): Promise<void> {
    this.addSql('alter table "tokens" reset (fillfactor);');
  }
}
