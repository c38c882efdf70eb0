import type { PaymentStatus } from '@tollgate/contracts';
import { nextPaymentStatus, type ProviderOutcome } from './payment-status';

describe('nextPaymentStatus', () => {
  it.each<[PaymentStatus, ProviderOutcome, PaymentStatus]>([
    ['pending', 'succeeded', 'success'],
    ['pending', 'failed', 'failed'],
    ['pending', 'canceled', 'canceled'],
    ['success', 'refunded', 'refunded'],
  ])('moves a %s payment on %s to %s', (current, outcome, next) => {
    expect(nextPaymentStatus(current, outcome, 'yookassa')).toBe(next);
  });

  it('marks a test payment that succeeds as test_success, which is final', () => {
    expect(nextPaymentStatus('pending', 'succeeded', 'test')).toBe('test_success');
    expect(nextPaymentStatus('test_success', 'refunded', 'test')).toBeUndefined();
  });

  it.each<[PaymentStatus, ProviderOutcome]>([
    ['pending', 'pending'],
    ['pending', 'refunded'],
    ['success', 'succeeded'],
    ['success', 'canceled'],
    ['failed', 'succeeded'],
    ['canceled', 'succeeded'],
    ['refunded', 'succeeded'],
    ['refunded', 'refunded'],
  ])('leaves a %s payment alone on %s (repeats and replays change nothing)', (current, outcome) => {
    expect(nextPaymentStatus(current, outcome, 'crypto')).toBeUndefined();
  });
});
