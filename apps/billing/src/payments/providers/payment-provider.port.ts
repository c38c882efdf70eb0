import type { PaymentProviderName } from '@tollgate/contracts';
import type { ProviderOutcome } from '../payment-status';

export interface CheckoutRequest {
  paymentId: number;
  idempotenceKey: string;
  /** Rubles with two decimals: `1500.00`. */
  amount: string;
  email: string;
  description: string;
}

export interface Checkout {
  providerPaymentId: string;
  /** Where the payer goes next; null when nothing is left to do. */
  payUrl: string | null;
  /** A new payment is never refunded. */
  outcome: Exclude<ProviderOutcome, 'refunded'>;
}

/** A notification the provider is known to have sent, with the state the provider vouches for. */
export interface VerifiedNotification {
  providerPaymentId: string;
  outcome: ProviderOutcome;
  /** Rubles, as the provider states the payment's (or the refund's) amount. */
  amount: string;
  currency: string;
  /** For a refund: the provider's id of it, when the provider has one. */
  providerRefundId?: string;
}

export interface RefundRequest {
  providerPaymentId: string;
  /** Rubles with two decimals: `100.00`. */
  amount: string;
  /** The same key asks for the same refund (at most 64 characters). */
  idempotenceKey: string;
  description: string;
}

export interface ProviderRefund {
  providerRefundId: string;
  /** A refund the provider has not completed yet is settled by its notification later. */
  succeeded: boolean;
}

/** The notification is forged, tampered with or unreadable: nothing may change. */
export class RejectedNotificationError extends Error {
  override readonly name = 'RejectedNotificationError';
}

/** One way to pay. Adding one is a class implementing this and a line in the providers list. */
export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /** Configured (and, for `test`, allowed) on this installation. */
  enabled(): boolean;
  checkout(request: CheckoutRequest): Promise<Checkout>;
  /**
   * Establishes what a webhook call means: by its signature or by asking the provider. Undefined
   * for an event that concerns no payment state; throws RejectedNotificationError when forged.
   */
  verifyNotification(body: unknown): Promise<VerifiedNotification | undefined>;
  /** Gives money back to the payer through the provider's API; absent when it has none. */
  refund?(request: RefundRequest): Promise<ProviderRefund>;
}

export const PAYMENT_PROVIDER_LIST = Symbol('PAYMENT_PROVIDER_LIST');
