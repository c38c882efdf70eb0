import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import type { AccountSetQuotaRequest, AccountSetQuotaResult } from '@tollgate/contracts';
import { OutboxRelay, recordAudit } from '@tollgate/persistence';
import { LedgerEntryKind } from '../ledger/ledger-entry.entity';
import { LedgerService } from '../ledger/ledger.service';
import { openAndLockAccounts } from '../payments/open-account';

/** Balances set by an admin (through auth's user management): one adjustment entry of the difference. */
@Injectable()
export class AdjustmentsService {
  constructor(
    private readonly em: EntityManager,
    private readonly ledger: LedgerService,
    private readonly outbox: OutboxRelay,
  ) {}

  /**
   * Sets `userId`'s balance to `request.quota` by posting `quota − balance` (nothing when 0). A
   * repeated idempotency key answers the first call's delta and posts nothing.
   */
  async setQuota(userId: number, request: AccountSetQuotaRequest): Promise<AccountSetQuotaResult> {
    const idempotencyKey = `admin-set-quota:${request.idempotency_key}`;
    const result = await this.em.fork().transactional(async (tx) => {
      const account = (await openAndLockAccounts(tx, [userId])).get(userId)!;
      const [earlier] = await tx.execute<{ amount: string }[]>(
        'select amount from ledger_entries where idempotency_key = ?',
        [idempotencyKey],
      );
      if (earlier) return { user_id: userId, quota: account.quota, delta: Number(earlier.amount) };
      // Read before posting: the ledger updates the locked account's balance in place.
      const balanceBefore = account.quota;
      const delta = request.quota - balanceBefore;
      if (delta !== 0) {
        const reason = request.reason ? `: ${request.reason}` : '';
        await this.ledger.post(tx, [
          {
            userId,
            kind: LedgerEntryKind.AdminAdjustment,
            amount: delta,
            idempotencyKey,
            note: `set by admin ${request.actor_id}${reason}`,
          },
        ]);
        await recordAudit(tx, {
          service: 'billing',
          actor: { userId: request.actor_id, role: request.actor_role },
          action: 'balance.set',
          target: { kind: 'user', id: userId },
          before: { quota: balanceBefore },
          after: { quota: request.quota, reason: request.reason ?? null },
        });
      }
      return { user_id: userId, quota: request.quota, delta };
    });
    if (result.delta !== 0) this.outbox.nudge();
    return result;
  }
}
