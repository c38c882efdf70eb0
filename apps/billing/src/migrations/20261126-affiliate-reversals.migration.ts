import { Migration } from '@mikro-orm/migrations';

/** A refunded top-up takes its inviter's reward back: a third kind of affiliate entry. */
export class AffiliateReversalsMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "affiliate_entries" drop constraint "affiliate_entries_kind_check";');
    this.addSql(`
      alter table "affiliate_entries" add constraint "affiliate_entries_kind_check"
        check ("kind" in ('reward', 'transfer', 'reward_reversal'));`);
  }

  override async down(): Promise<void> {
    this.addSql('alter table "affiliate_entries" drop constraint "affiliate_entries_kind_check";');
    this.addSql(`
      alter table "affiliate_entries" add constraint "affiliate_entries_kind_check"
        check ("kind" in ('reward', 'transfer'));`);
  }
}
