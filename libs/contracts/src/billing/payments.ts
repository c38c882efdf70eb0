import { z } from 'zod';
import { decimalSchema, quotaSchema } from '../events/money';
import { epochSecondsSchema, rubleAmountSchema } from './money-input';

export const PAYMENT_PROVIDERS = ['yookassa', 'crypto', 'test'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

export const PAYMENT_STATUSES = [
  'pending',
  'success',
  'failed',
  'canceled',
  'refunded',
  'test_success',
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** `POST /api/user/payment`: a top-up in rubles; the receipt goes to `email`. */
export const paymentCreateRequestSchema = z.object({
  amount: rubleAmountSchema,
  promo_code: z
    .string()
    .trim()
    .max(64)
    .nullish()
    .transform((code) => (code ? code : undefined)),
  provider: z.enum(PAYMENT_PROVIDERS),
  email: z.string().trim().max(254).email('a receipt e-mail address is required'),
});
export type PaymentCreateRequest = z.output<typeof paymentCreateRequestSchema>;

/** The answer: the pending payment and where to pay it (null when nothing is left to do). */
export const paymentCreatedSchema = z.object({
  id: z.number().int().positive(),
  status: z.enum(PAYMENT_STATUSES),
  provider: z.enum(PAYMENT_PROVIDERS),
  amount: decimalSchema,
  currency: z.literal('RUB'),
  usd_rub: decimalSchema,
  quota: quotaSchema,
  bonus_quota: quotaSchema,
  pay_url: z.string().url().nullable(),
});
export type PaymentCreated = z.infer<typeof paymentCreatedSchema>;

/** One line of `GET /api/user/payment/logs`. */
export const paymentLogItemSchema = z.object({
  id: z.number().int().positive(),
  amount: decimalSchema,
  currency: z.literal('RUB'),
  status: z.enum(PAYMENT_STATUSES),
  provider: z.enum(PAYMENT_PROVIDERS),
  quota: quotaSchema,
  bonus_quota: quotaSchema,
  promo_code: z.string().nullable(),
  created_at: epochSecondsSchema,
  completed_at: epochSecondsSchema.nullable(),
});
export type PaymentLogItem = z.infer<typeof paymentLogItemSchema>;

/** `POST /api/user/aff_transfer`: affiliate quota to move to the balance. */
export const affiliateTransferRequestSchema = z.object({
  quota: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});

export const affiliateTransferResultSchema = z.object({
  quota: quotaSchema,
  aff_quota: quotaSchema,
  transferred: quotaSchema,
});
export type AffiliateTransferResult = z.infer<typeof affiliateTransferResultSchema>;

/** `GET /api/user/aff_transfer`: what the caller can move and on what terms. */
export const affiliateSummarySchema = z.object({
  aff_quota: quotaSchema,
  aff_history_quota: quotaSchema,
  /** Users who registered with the caller's invitation. */
  invitees: z.number().int().nonnegative(),
  reward_percent: decimalSchema,
  min_transfer_quota: quotaSchema,
});
export type AffiliateSummary = z.infer<typeof affiliateSummarySchema>;
