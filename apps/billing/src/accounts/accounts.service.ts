import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import type { IdentityUser } from '@tollgate/contracts';
import { enqueueOutbox, OutboxRelay } from '@tollgate/persistence';
import { LedgerEntryKind } from '../ledger/ledger-entry.entity';
import { LedgerService } from '../ledger/ledger.service';
import { BillingSettings } from '../settings/billing-settings';
import { Account } from './account.entity';
import { billingBalanceEvent } from './balance-events';

@Injectable()
export class AccountsService {
  constructor(
    private readonly em: EntityManager,
    private readonly outbox: OutboxRelay,
    private readonly ledger: LedgerService,
    private readonly settings: BillingSettings,
  ) {}

  /**
   * Opens an account for each user that has none, in one transaction, and publishes their balances;
   * each new account gets the operators' QuotaForNewUser through the ledger (once per user: its
   * entry is keyed by the user). Redelivered or repeated users are no-ops, so the identity.user
   * consumer is idempotent, and users who had accounts before the setting get nothing.
   */
  async openAccounts(users: readonly IdentityUser[]): Promise<number> {
    if (users.length === 0) return 0;
    const ids = [...new Set(users.map((u) => u.id))];
    const bonus = this.settings.quotaForNewUser();
    const opened = await this.em.fork().transactional(async (tx) => {
      const existing = new Set(
        (await tx.find(Account, { userId: { $in: ids } }, { fields: ['userId'] })).map((a) => a.userId),
      );
      const created = ids.filter((id) => !existing.has(id)).map((userId) => tx.create(Account, { userId }));
      await tx.flush();
      if (bonus > 0 && created.length > 0) {
        // Posting publishes the credited balances.
        await this.ledger.post(
          tx,
          created.map((account) => ({
            userId: account.userId,
            kind: LedgerEntryKind.SignupBonus,
            amount: bonus,
            idempotencyKey: `signup-bonus:${account.userId}`,
            note: 'QuotaForNewUser',
          })),
        );
      } else {
        await enqueueOutbox(tx, created.map(billingBalanceEvent));
      }
      return created.length;
    });
    if (opened > 0) this.outbox.nudge();
    return opened;
  }

  async find(userId: number): Promise<Account | null> {
    return this.em.fork().findOne(Account, { userId });
  }
}
