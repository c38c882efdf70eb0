import type { PaymentProviderName, PaymentStatus } from '@tollgate/contracts';

/** What a provider says happened to a payment, in the platform's words. */
export type ProviderOutcome = 'pending' | 'succeeded' | 'canceled' | 'failed' | 'refunded';

/**
 * The status a payment moves to on `outcome`, or undefined when nothing changes. Only a pending
 * payment can succeed, fail or be canceled, and only a successful one can be refunded, so a
 * repeated or replayed notification never credits or debits twice.
 */
export function nextPaymentStatus(
  current: PaymentStatus,
  outcome: ProviderOutcome,
  provider: PaymentProviderName,
): PaymentStatus | undefined {
  if (current === 'pending') {
    switch (outcome) {
      case 'succeeded':
        return provider === 'test' ? 'test_success' : 'success';
      case 'failed':
        return 'failed';
      case 'canceled':
        return 'canceled';
      default:
        return undefined;
    }
  }
  if (current === 'success' && outcome === 'refunded') return 'refunded';
  return undefined;
}
