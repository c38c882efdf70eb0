import { Migration } from '@mikro-orm/migrations';

/**
 * Room on every page of the two tables settlement updates once per user per batch (issue 17): an
 * account and its daily rollup row. Neither update changes an indexed column, so a new version that
 * fits on its row's page is a HOT update: no index entry, and the old version is pruned on that page
 * without vacuum. On full pages (fillfactor 100) only 27–71 % of account updates and 5–41 % of
 * rollup updates were HOT in the billing bench; each other one added an entry to the table's indexes
 * (one for accounts, two for the rollup) and left a dead entry behind (bench/ANALYSIS.md, H64).
 * Pages written from now on keep half their room; rows on pages that are full today move to such a
 * page at their next update that does not fit.
 */
export class PerUserRowsHotUpdatesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "accounts" set (fillfactor = 50);');
    this.addSql('alter table "usage_daily_stats" set (fillfactor = 50);');
  }

  override async down(): Promise<void> {
    this.addSql('alter table "accounts" reset (fillfactor);');
    this.addSql('alter table "usage_daily_stats" reset (fillfactor);');
  }
}
