import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable, Logger } from '@nestjs/common';
import {
  ErrorCode,
  normalizeDecimal,
  type PaymentProviderName,
  type PaymentStatus,
} from '@tollgate/contracts';
import { AppException } from '@tollgate/platform';
import { PaymentProviders } from './payment-providers';
import { PaymentRefundsService } from './payment-refunds.service';
import { PaymentSettlementService } from './payment-settlement.service';
import { Payment } from './payment.entity';
import { RejectedNotificationError } from './providers/payment-provider.port';
import { ProviderUnavailableError } from './providers/provider-http';

export interface WebhookOutcome {
  /** The payment's status after the notification, when it concerns one of ours. */
  status?: PaymentStatus;
  changed: boolean;
}

/**
 * Provider notifications: verified first (signature, or reading the payment back from the
 * provider), matched to our payment by the provider's id and amount, then settled once.
 */
@Injectable()
export class PaymentWebhooksService {
  private readonly logger = new Logger(PaymentWebhooksService.name);

  constructor(
    private readonly em: EntityManager,
    private readonly providers: PaymentProviders,
    private readonly settlement: PaymentSettlementService,
    private readonly refunds: PaymentRefundsService,
  ) {}

  async handle(providerName: Exclude<PaymentProviderName, 'test'>, body: unknown): Promise<WebhookOutcome> {
    const provider = this.providers.enabled(providerName);
    let verified;
    try {
      verified = await provider.verifyNotification(body);
    } catch (error) {
      if (error instanceof RejectedNotificationError) {
        this.logger.warn(`${providerName} notification refused: ${error.message}`);
        throw new AppException(ErrorCode.Unauthenticated, 'Notification refused');
      }
      if (error instanceof ProviderUnavailableError) {
        // The provider retries notifications that are not answered with 2xx.
        throw new AppException(ErrorCode.UpstreamServiceDown, 'Payment provider unavailable', undefined, {
          headers: { 'Retry-After': '60' },
        });
      }
      throw error;
    }
    if (!verified) return { changed: false };

    const payment = await this.em
      .fork()
      .findOne(Payment, { provider: providerName, providerPaymentId: verified.providerPaymentId });
    if (!payment) {
      this.logger.warn(`${providerName} notification for an unknown payment`);
      return { changed: false };
    }
    if (verified.outcome === 'refunded') {
      if (verified.currency !== payment.currency) {
        this.logger.warn(`${providerName} refund of payment ${payment.id} in another currency`);
        throw new AppException(ErrorCode.ValidationFailed, 'Notification does not match the payment');
      }
      // Whole or partial: the balance gives back the refunded share, once per refund.
      const refunded = await this.refunds.recordProviderRefund(
        payment.id,
        verified.amount,
        verified.providerRefundId ?? null,
      );
      return { status: refunded.payment.status, changed: refunded.changed };
    }
    if (verified.currency !== payment.currency || !sameAmount(verified.amount, payment.amount)) {
      this.logger.warn(`${providerName} notification for payment ${payment.id} names another amount`);
      throw new AppException(ErrorCode.ValidationFailed, 'Notification does not match the payment');
    }
    const { payment: settled, changed } = await this.settlement.apply(payment.id, verified.outcome);
    return { status: settled.status, changed };
  }
}

function sameAmount(a: string, b: string): boolean {
  try {
    return normalizeDecimal(a) === normalizeDecimal(b);
  } catch {
    return false;
  }
}
