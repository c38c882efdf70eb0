import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable, Logger } from '@nestjs/common';
import { enqueueOutbox, OutboxRelay } from '@tollgate/persistence';
import { AffiliateService } from '../affiliate/affiliate.service';
import { LedgerEntryKind } from '../ledger/ledger-entry.entity';
import { LedgerService } from '../ledger/ledger.service';
import type { LedgerPosting } from '../ledger/posting';
import { ledgerNote } from '../logs/ledger-note';
import { PromoRedemptionsService } from '../promo/promo-redemptions.service';
import { openAndLockAccounts } from './open-account';
import { billingPaymentEvent } from './payment-events';
import { nextPaymentStatus, type ProviderOutcome } from './payment-status';
import { Payment } from './payment.entity';

export interface SettlementResult {
  payment: Payment;
  /** False when the outcome changed nothing (a repeat, a replay, or a state that cannot follow). */
  changed: boolean;
}

/**
 * Applies what a provider says happened to a payment, exactly once: the payment row is locked,
 * its status may only move forward (see nextPaymentStatus), and every ledger entry is keyed by
 * the payment, so any number of concurrent or repeated notifications credit or debit once.
 */
@Injectable()
export class PaymentSettlementService {
  private readonly logger = new Logger(PaymentSettlementService.name);

  constructor(
    private readonly em: EntityManager,
    private readonly ledger: LedgerService,
    private readonly promos: PromoRedemptionsService,
    private readonly affiliate: AffiliateService,
    private readonly outbox: OutboxRelay,
  ) {}

  async apply(paymentId: number, outcome: Exclude<ProviderOutcome, 'refunded'>): Promise<SettlementResult> {
    const result = await this.em.fork().transactional(async (tx) => {
      const payment = await tx.findOneOrFail(
        Payment,
        { id: paymentId },
        { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
      );
      const next = nextPaymentStatus(payment.status, outcome, payment.provider);
      if (!next) return { payment, changed: false };
      const now = new Date();
      if (next === 'success' || next === 'test_success') await this.credit(tx, payment);
      if (next === 'failed' || next === 'canceled') await this.promos.release(tx, payment.id);
      payment.status = next;
      payment.updatedAt = now;
      payment.completedAt = now;
      await tx.flush();
      await enqueueOutbox(tx, [billingPaymentEvent(payment, now)]);
      return { payment, changed: true };
    });
    if (result.changed) {
      this.outbox.nudge();
      this.logger.log(`payment ${paymentId} is ${result.payment.status}`);
    }
    return result;
  }

  private async credit(tx: EntityManager, payment: Payment): Promise<void> {
    const inviterId =
      payment.provider === 'test' ? undefined : await this.affiliate.inviterOf(tx, payment.userId);
    await openAndLockAccounts(tx, inviterId === undefined ? [payment.userId] : [payment.userId, inviterId]);
    if (payment.promoId !== null && !(await this.promos.consume(tx, payment.id))) payment.bonusQuota = 0;
    const key = `payment:${payment.id}`;
    const postings: LedgerPosting[] = [
      {
        userId: payment.userId,
        kind: payment.provider === 'test' ? LedgerEntryKind.TestTopUp : LedgerEntryKind.TopUp,
        amount: payment.quota,
        idempotencyKey: `${key}:top_up`,
        note: ledgerNote.topUp(payment.provider, payment.amount, payment.usdRub),
      },
    ];
    if (payment.bonusQuota > 0) {
      postings.push({
        userId: payment.userId,
        kind: LedgerEntryKind.PromoBonus,
        amount: payment.bonusQuota,
        idempotencyKey: `${key}:promo_bonus`,
        note: ledgerNote.promoBonus(payment.promoId),
      });
    }
    await this.ledger.post(tx, postings);
    if (inviterId !== undefined) {
      await this.affiliate.reward(tx, inviterId, payment.userId, payment.quota, payment.id);
    }
  }
}
