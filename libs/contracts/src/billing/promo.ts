import { z } from 'zod';
import { decimalSchema } from '../events/money';
import { decimalInput, epochSecondsSchema, positiveDecimalInput } from './money-input';

/** `percent`: bonus quota as a percentage of the top-up; `fixed`: a bonus worth `value` rubles. */
export const PROMO_TYPES = ['percent', 'fixed'] as const;
export type PromoType = (typeof PROMO_TYPES)[number];

export const promoCodeTextSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[\p{L}\p{N}_-]+$/u, 'promo codes are letters, digits, "_" and "-"');

const promoFields = {
  code: promoCodeTextSchema,
  type: z.enum(PROMO_TYPES),
  /** Percent (at most 1000) or rubles. */
  value: positiveDecimalInput(9, 2),
  /** 0 = unlimited. */
  max_uses: z.number().int().min(0).max(1_000_000_000),
  /** 0 = unlimited. */
  per_user_limit: z.number().int().min(0).max(1_000_000_000),
  /** Smallest top-up in rubles the code applies to. */
  min_amount: decimalInput(10, 2),
  starts_at: epochSecondsSchema.nullable(),
  expires_at: epochSecondsSchema.nullable(),
  active: z.boolean(),
};

const percentAtMost1000 = (promo: { type?: PromoType; value?: string }) =>
  promo.type !== 'percent' || promo.value === undefined || Number(promo.value) <= 1000;
const endsAfterStart = (promo: { starts_at?: number | null; expires_at?: number | null }) =>
  promo.starts_at == null || promo.expires_at == null || promo.expires_at > promo.starts_at;

/** `POST /api/promo`. */
export const promoCreateSchema = z
  .object({
    ...promoFields,
    max_uses: promoFields.max_uses.default(0),
    per_user_limit: promoFields.per_user_limit.default(1),
    min_amount: promoFields.min_amount.default('0'),
    starts_at: promoFields.starts_at.default(null),
    expires_at: promoFields.expires_at.default(null),
    active: promoFields.active.default(true),
  })
  .strict()
  .refine(percentAtMost1000, { message: 'a percent bonus is at most 1000', path: ['value'] })
  .refine(endsAfterStart, { message: 'expires_at must be after starts_at', path: ['expires_at'] });
export type PromoCreate = z.output<typeof promoCreateSchema>;

/** `PUT /api/promo/:id`: the fields to change. */
export const promoUpdateSchema = z
  .object(promoFields)
  .partial()
  .strict()
  .refine(percentAtMost1000, { message: 'a percent bonus is at most 1000', path: ['value'] })
  .refine(endsAfterStart, { message: 'expires_at must be after starts_at', path: ['expires_at'] });
export type PromoUpdate = z.output<typeof promoUpdateSchema>;

export const promoIdParamsSchema = z.object({ id: z.coerce.number().int().positive() });

export const promoSchema = z.object({
  id: z.number().int().positive(),
  code: z.string(),
  type: z.enum(PROMO_TYPES),
  value: decimalSchema,
  max_uses: z.number().int(),
  per_user_limit: z.number().int(),
  min_amount: decimalSchema,
  starts_at: epochSecondsSchema.nullable(),
  expires_at: epochSecondsSchema.nullable(),
  active: z.boolean(),
  used_count: z.number().int(),
  created_at: epochSecondsSchema,
  updated_at: epochSecondsSchema,
});
export type Promo = z.infer<typeof promoSchema>;

/** `POST /api/promo/validate`. */
export const promoValidateRequestSchema = z.object({ code: z.string().trim().max(64) });

export const promoValidationSchema = z.object({
  valid: z.boolean(),
  code: z.string(),
  type: z.enum(PROMO_TYPES).optional(),
  value: decimalSchema.optional(),
  min_amount: decimalSchema.optional(),
  description: z.string(),
});
export type PromoValidation = z.infer<typeof promoValidationSchema>;
