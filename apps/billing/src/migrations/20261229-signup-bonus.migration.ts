import { Migration } from '@mikro-orm/migrations';

/** The quota an operator gives each new account (QuotaForNewUser) is a ledger entry of its own kind. */
export class SignupBonusMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table "ledger_entries" drop constraint "ledger_entries_kind_check",
        add constraint "ledger_entries_kind_check" check ("kind" in ('usage', 'top_up', 'promo_bonus',
          'admin_adjustment', 'refund', 'affiliate_reward', 'affiliate_transfer', 'test_top_up', 'signup_bonus'))`);
  }

  override async down(): Promise<void> {
    this.addSql(`
      alter table "ledger_entries" drop constraint "ledger_entries_kind_check",
        add constraint "ledger_entries_kind_check" check ("kind" in ('usage', 'top_up', 'promo_bonus',
          'admin_adjustment', 'refund', 'affiliate_reward', 'affiliate_transfer', 'test_top_up'))`);
  }
}
