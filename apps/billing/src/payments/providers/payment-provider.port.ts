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
  outcome: ProviderOutcome;
}

/** A notification the provider is known to have sent, with the state the provider vouches for. */
export interface VerifiedNotification {
  providerPaymentId: string;
  outcome: ProviderOutcome;
  /** Rubles, as the provider states the payment's (or the refund's) amount. */
  amount: string;
  currency: string;
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
}

export const PAYMENT_PROVIDER_LIST = Symbol('PAYMENT_PROVIDER_LIST');
