import { randomUUID } from 'node:crypto';
import { normalizeDecimal, TOPICS, type BillingPayment } from '@tollgate/contracts';
import type { OutgoingEvent } from '@tollgate/events';
import type { Payment } from './payment.entity';

/** A payment's change of status on billing.payment, keyed by payment so its events stay in order. */
export function billingPaymentEvent(payment: Payment, at: Date): OutgoingEvent {
  const value: BillingPayment = {
    v: 1,
    event_id: randomUUID(),
    payment_id: payment.id,
    user_id: payment.userId,
    provider: payment.provider,
    amount: normalizeDecimal(payment.amount),
    currency: payment.currency,
    quota: payment.quota + payment.bonusQuota,
    status: payment.status,
    occurred_at: Math.floor(at.getTime() / 1000),
  };
  return { topic: TOPICS.billingPayment.name, key: String(payment.id), value };
}
