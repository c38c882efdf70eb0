import { createHash, randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable, Logger } from '@nestjs/common';
import { ErrorCode, type PaymentRefundRequest } from '@tollgate/contracts';
import { enqueueOutbox, OutboxRelay, recordAudit, type AuditActor } from '@tollgate/persistence';
import { DEFAULT_LOCALE, type AppException, type Locale } from '@tollgate/platform';
import { Account } from '../accounts/account.entity';
import { AffiliateService } from '../affiliate/affiliate.service';
import { localizedException } from '../i18n/messages';
import { LedgerEntryKind } from '../ledger/ledger-entry.entity';
import { LedgerService } from '../ledger/ledger.service';
import { ledgerNote } from '../logs/ledger-note';
import { openAndLockAccounts } from './open-account';
import { billingPaymentEvent } from './payment-events';
import { PaymentProviders } from './payment-providers';
import { PaymentRefund } from './payment-refund.entity';
import { Payment } from './payment.entity';
import { ProviderUnavailableError } from './providers/provider-http';
import { kopecksOf, providerRubles, refundShare, rublesOf, type ShareState } from './refund-share';

/** A refund to record: the operator's or the one a provider reported. */
interface RefundDraft {
  kopecks: bigint;
  reason: string;
  source: 'operator' | 'provider';
  actor: AuditActor | null;
  refundKey: string;
  providerRefundId: string | null;
}

export interface RefundOutcome {
  payment: Payment;
  /** False when the refund was already recorded (a repeat) or there was nothing left to refund. */
  changed: boolean;
  /** True when the provider accepted the refund but has not completed it: its notification settles it. */
  awaitingProvider?: boolean;
}

const notFound = (locale: Locale) => localizedException(ErrorCode.NotFound, 'payment_not_found', locale);

/** What a refund of the payment shares out: everything it credited, bonus included. */
const shareState = (payment: Payment): ShareState => ({
  total: payment.quota + payment.bonusQuota,
  wholeKopecks: kopecksOf(payment.amount),
  doneKopecks: kopecksOf(payment.refundedAmount),
  takenBefore: payment.refundedQuota,
});

/**
 * Refunds, whole or partial, by an operator or reported by a provider. Each takes back from the
 * balance the share of what the payment credited that its amount stands for (the last one takes
 * exactly what is left), and the same share of the inviter's reward, once per refund: keyed by
 * the operator's idempotency key or the provider's refund id. A payment refunded in full becomes
 * `refunded`.
 */
@Injectable()
export class PaymentRefundsService {
  private readonly logger = new Logger(PaymentRefundsService.name);

  constructor(
    private readonly em: EntityManager,
    private readonly ledger: LedgerService,
    private readonly affiliate: AffiliateService,
    private readonly providers: PaymentProviders,
    private readonly outbox: OutboxRelay,
  ) {}

  /**
   * An operator's refund: checked first (a successful payment, no more than is left, and a balance
   * that still holds what it takes back), then made through the provider's API, then recorded. A
   * repeated idempotency key answers the first refund's result and changes nothing.
   */
  async refundByOperator(
    actor: AuditActor,
    paymentId: number,
    request: PaymentRefundRequest,
    locale: Locale,
  ): Promise<RefundOutcome> {
    const refundKey = `operator:${request.idempotency_key ?? randomUUID()}`;
    const em = this.em.fork();
    const payment = await em.findOne(Payment, { id: paymentId });
    if (!payment) throw notFound(locale);
    if (await em.findOne(PaymentRefund, { refundKey })) return { payment, changed: false };
    const kopecks = kopecksOf(request.amount);
    this.checkRefundable(payment, kopecks, locale);
    const share = refundShare(shareState(payment), kopecks);
    const balance = (await em.findOne(Account, { userId: payment.userId }))?.quota ?? 0;
    if (balance < share) throw spent(balance, share, locale);

    let providerRefundId: string | null = null;
    if (payment.provider !== 'test') {
      const made = await this.refundThroughProvider(payment, kopecks, refundKey, request.reason, locale);
      providerRefundId = made.providerRefundId;
      if (!made.succeeded) return { payment, changed: false, awaitingProvider: true };
    }
    return this.record(
      paymentId,
      { kopecks, reason: request.reason, source: 'operator', actor, refundKey, providerRefundId },
      locale,
    );
  }

  /**
   * A refund the provider reports (made in its back office, or the notification of one an
   * operator made here). Money has already gone back, so it is recorded even when the balance
   * goes below zero; more than is left counts as what is left.
   */
  async recordProviderRefund(
    paymentId: number,
    rubles: string,
    providerRefundId: string | null,
  ): Promise<RefundOutcome> {
    return this.record(paymentId, {
      kopecks: kopecksOf(rubles),
      reason: 'refund reported by the payment provider',
      source: 'provider',
      actor: null,
      // A provider without refund ids (crypto) refunds a payment once, in full.
      refundKey: `provider:${providerRefundId ?? `payment-${paymentId}-full`}`,
      providerRefundId,
    });
  }

  /** `locale` words an operator's refusals; a provider's report has no reader and takes the default. */
  private async record(
    paymentId: number,
    draft: RefundDraft,
    locale: Locale = DEFAULT_LOCALE,
  ): Promise<RefundOutcome> {
    const result = await this.em.fork().transactional(async (tx): Promise<RefundOutcome> => {
      const payment = await tx.findOne(
        Payment,
        { id: paymentId },
        { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
      );
      if (!payment) throw notFound(locale);
      const recorded = await tx.findOne(PaymentRefund, {
        $or: [
          { refundKey: draft.refundKey },
          ...(draft.providerRefundId ? [{ providerRefundId: draft.providerRefundId }] : []),
        ],
      });
      if (recorded) return { payment, changed: false };
      const left = kopecksOf(payment.amount) - kopecksOf(payment.refundedAmount);
      let kopecks = draft.kopecks;
      if (draft.source === 'operator') {
        this.checkRefundable(payment, kopecks, locale);
      } else {
        if (payment.status !== 'success' || left <= 0n) return { payment, changed: false };
        if (kopecks > left) {
          this.logger.warn(
            `payment ${paymentId}: the provider refunded more than is left; counted as what is left`,
          );
          kopecks = left;
        }
      }
      const before = refundAuditSnapshot(payment);
      const share = refundShare(shareState(payment), kopecks);
      const inviterId = await this.affiliate.inviterOf(tx, payment.userId);
      const accounts = await openAndLockAccounts(
        tx,
        inviterId === undefined ? [payment.userId] : [payment.userId, inviterId],
      );
      const balance = accounts.get(payment.userId)!.quota;
      if (draft.source === 'operator' && balance < share) throw spent(balance, share, locale);

      const refund = tx.create(PaymentRefund, {
        paymentId,
        amount: rublesOf(kopecks),
        quota: share,
        reason: draft.reason,
        source: draft.source,
        actorId: draft.actor?.userId ?? null,
        refundKey: draft.refundKey,
        providerRefundId: draft.providerRefundId,
      });
      await tx.flush();
      await this.ledger.post(tx, [
        {
          userId: payment.userId,
          kind: LedgerEntryKind.Refund,
          amount: -share,
          idempotencyKey: `payment:${paymentId}:refund:${draft.refundKey}`,
          note: ledgerNote.refund(payment.provider, refund.id, rublesOf(kopecks), payment.amount),
        },
      ]);
      const state = shareState(payment);
      await this.affiliate.reverseRewardShare(tx, paymentId, draft.refundKey, (reward, reversedBefore) =>
        refundShare({ ...state, total: reward, takenBefore: reversedBefore }, kopecks),
      );
      const now = new Date();
      payment.refundedAmount = rublesOf(kopecksOf(payment.refundedAmount) + kopecks);
      payment.refundedQuota += share;
      payment.updatedAt = now;
      const whole = kopecksOf(payment.refundedAmount) === kopecksOf(payment.amount);
      if (whole) payment.status = 'refunded';
      await tx.flush();
      if (whole) await enqueueOutbox(tx, [billingPaymentEvent(payment, now)]);
      if (draft.actor) {
        await recordAudit(tx, {
          service: 'billing',
          actor: draft.actor,
          action: 'payment.refund',
          target: { kind: 'payment', id: paymentId },
          before,
          after: { ...refundAuditSnapshot(payment), refund_amount: rublesOf(kopecks), reason: draft.reason },
        });
      }
      return { payment, changed: true };
    });
    if (result.changed) {
      this.outbox.nudge();
      this.logger.log(
        `payment ${paymentId}: refunded ${result.payment.refundedAmount} of ${result.payment.amount} RUB`,
      );
    }
    return result;
  }

  private checkRefundable(payment: Payment, kopecks: bigint, locale: Locale): void {
    if (payment.status === 'refunded') {
      throw localizedException(ErrorCode.Conflict, 'refund_already_whole', locale);
    }
    if (payment.status !== 'success') {
      throw localizedException(ErrorCode.Conflict, 'refund_not_successful', locale, {
        status: payment.status,
      });
    }
    const left = kopecksOf(payment.amount) - kopecksOf(payment.refundedAmount);
    if (kopecks > left) {
      throw localizedException(ErrorCode.ValidationFailed, 'refund_above_left', locale, {
        left: rublesOf(left),
      });
    }
  }

  private async refundThroughProvider(
    payment: Payment,
    kopecks: bigint,
    refundKey: string,
    reason: string,
    locale: Locale,
  ): Promise<{ providerRefundId: string; succeeded: boolean }> {
    const provider = this.providers.named(payment.provider);
    const named = { provider: payment.provider };
    if (!provider?.refund || !payment.providerPaymentId) {
      throw localizedException(ErrorCode.Conflict, 'refund_no_provider_api', locale, named);
    }
    try {
      return await provider.refund({
        providerPaymentId: payment.providerPaymentId,
        amount: providerRubles(kopecks),
        // Providers take keys of at most 64 characters; the same refund key asks for the same refund.
        idempotenceKey: createHash('sha256').update(refundKey).digest('hex').slice(0, 64),
        description: reason.slice(0, 250),
      });
    } catch (error) {
      if (!(error instanceof ProviderUnavailableError)) throw error;
      this.logger.warn(`payment ${payment.id}: ${payment.provider} refund failed: ${error.message}`);
      if (error.status !== undefined && error.status >= 400 && error.status < 500) {
        throw localizedException(ErrorCode.Conflict, 'refund_refused_by_provider', locale, named);
      }
      throw localizedException(ErrorCode.UpstreamServiceDown, 'refund_provider_unavailable', locale, named, {
        headers: { 'Retry-After': '30' },
      });
    }
  }
}

function spent(balance: number, share: number, locale: Locale): AppException {
  return localizedException(ErrorCode.Conflict, 'refund_balance_spent', locale, { share, balance });
}

function refundAuditSnapshot(payment: Payment): Record<string, unknown> {
  return {
    status: payment.status,
    amount: payment.amount,
    refunded_amount: payment.refundedAmount,
    refunded_quota: payment.refundedQuota,
  };
}
