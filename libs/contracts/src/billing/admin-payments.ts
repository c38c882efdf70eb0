import { z } from 'zod';
import { pageSchema } from '../http/envelope';
import { decimalSchema, quotaSchema } from '../events/money';
import { epochSecondsSchema, rubleAmountSchema } from './money-input';
import { PAYMENT_PROVIDERS, PAYMENT_STATUSES } from './payments';

export const ADMIN_PAYMENT_PAGE_DEFAULT_SIZE = 20;

/** One refund of a payment: by an operator in the admin area, or reported by the provider. */
export const paymentRefundViewSchema = z.object({
  id: z.number().int().positive(),
  amount: decimalSchema,
  quota: quotaSchema,
  reason: z.string(),
  source: z.enum(['operator', 'provider']),
  actor_id: z.number().int().positive().nullable(),
  provider_refund_id: z.string().nullable(),
  created_at: epochSecondsSchema,
});
export type PaymentRefundView = z.infer<typeof paymentRefundViewSchema>;

/** A payment as the admin area shows it (`GET /api/payment/`, `GET /api/payment/:id`). */
export const adminPaymentViewSchema = z.object({
  id: z.number().int().positive(),
  user_id: z.number().int().positive(),
  /** The payer's name as billing last heard it; null when billing never saw the user's event. */
  username: z.string().nullable(),
  provider: z.enum(PAYMENT_PROVIDERS),
  provider_payment_id: z.string().nullable(),
  status: z.enum(PAYMENT_STATUSES),
  amount: decimalSchema,
  currency: z.literal('RUB'),
  usd_rub: decimalSchema,
  quota: quotaSchema,
  bonus_quota: quotaSchema,
  promo_code: z.string().nullable(),
  refunded_amount: decimalSchema,
  refunded_quota: quotaSchema,
  /** What may still be refunded, in rubles. */
  refundable_amount: decimalSchema,
  created_at: epochSecondsSchema,
  completed_at: epochSecondsSchema.nullable(),
  refunds: z.array(paymentRefundViewSchema),
});
export type AdminPaymentView = z.infer<typeof adminPaymentViewSchema>;
export const adminPaymentPageSchema = pageSchema(adminPaymentViewSchema);

/** Filters of `GET /api/payment/` (the page query is read separately). */
export const adminPaymentListQuerySchema = z.object({
  status: z.enum(PAYMENT_STATUSES).optional(),
  provider: z.enum(PAYMENT_PROVIDERS).optional(),
  user_id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
});
export type AdminPaymentListQuery = z.infer<typeof adminPaymentListQuerySchema>;

/** `POST /api/payment/:id/refund`: rubles to give back (all or part of what is left) and why. */
export const paymentRefundRequestSchema = z
  .object({
    amount: rubleAmountSchema,
    reason: z.string().trim().min(1, 'a reason is required').max(500),
    /** Repeating a request with the same key refunds once and answers the same. */
    idempotency_key: z.string().trim().min(8).max(128).optional(),
  })
  .strict();
export type PaymentRefundRequest = z.output<typeof paymentRefundRequestSchema>;
