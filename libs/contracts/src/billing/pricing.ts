import { z } from 'zod';
import { groupNameSchema } from '../users/roles';
import { normalizeDecimal } from './decimal';

/** A model's name as clients send it in `model` (`gpt-4o`, `claude-sonnet-4-5`, `deepseek-ai/DeepSeek-V3`). */
export const modelNameSchema = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:/-]*$/, 'model names are letters, digits, ".", "_", ":", "/" and "-"');

/** Ratings shown in the price list: 1 (lowest) to 5 (highest). */
export const ratingSchema = z.number().int().min(1).max(5);

/**
 * An admin-entered decimal (a JSON string or number), stored and published as its canonical string.
 * Bounded so NUMERIC columns and the charge formula never see absurd values.
 */
const boundedDecimal = (maxWholeDigits: number, maxFractionDigits: number) => {
  const pattern = new RegExp(`^\\d{1,${maxWholeDigits}}(\\.\\d{1,${maxFractionDigits}})?$`);
  return z
    .union([z.string(), z.number().finite()])
    .transform((value) => (typeof value === 'number' ? String(value) : value.trim()))
    .refine(
      (value) => pattern.test(value),
      `a non-negative decimal with at most ${maxWholeDigits} whole and ${maxFractionDigits} fractional digits`,
    )
    .transform(normalizeDecimal);
};

/** USD per 1M tokens: at most $9 999 999.999999. */
export const priceDecimalSchema = boundedDecimal(7, 6);
/** A group's multiplier on prices (1 = list price, 0.75 = 25 % off). */
export const groupRatioDecimalSchema = boundedDecimal(4, 6);

/** `PUT /api/pricing/models/:model`: the whole entry; creates the model if it is new. */
export const modelPriceUpdateSchema = z
  .object({
    provider: z.string().trim().min(1).max(64),
    input_price: priceDecimalSchema,
    output_price: priceDecimalSchema,
    cached_input_price: priceDecimalSchema,
    /**
     * Prompt-cache writes (5 minutes) and those kept for an hour; null or absent: writes cost the input
     * price, and an hour's writes the 5-minute write price.
     */
    cache_write_price: priceDecimalSchema.nullable().default(null),
    cache_write_1h_price: priceDecimalSchema.nullable().default(null),
    context_window: z.number().int().min(0).max(100_000_000),
    intelligence: ratingSchema,
    speed: ratingSchema,
    sota: z.boolean(),
    deprecated: z.boolean(),
  })
  .strict();
export type ModelPriceUpdate = z.output<typeof modelPriceUpdateSchema>;

/** `PUT /api/pricing/groups/:group`. */
export const groupRatioUpdateSchema = z.object({ ratio: groupRatioDecimalSchema }).strict();
export type GroupRatioUpdate = z.output<typeof groupRatioUpdateSchema>;

export const pricingPathSchemas = {
  model: z.object({ model: modelNameSchema }),
  group: z.object({ group: groupNameSchema }),
};

/** One row of `GET /api/pricing`: prices in USD per 1M tokens, as numbers for display. */
export const modelPricingSchema = z.object({
  model: z.string(),
  context_window: z.number().int().nonnegative(),
  provider: z.string(),
  input_price: z.number().nonnegative(),
  output_price: z.number().nonnegative(),
  cached_input_price: z.number().nonnegative(),
  /** Null where the model does not price cache writes apart from input. */
  cache_write_price: z.number().nonnegative().nullable().optional(),
  cache_write_1h_price: z.number().nonnegative().nullable().optional(),
  intelligence: ratingSchema,
  speed: ratingSchema,
  sota: z.boolean(),
  deprecated: z.boolean(),
});
export type ModelPricing = z.infer<typeof modelPricingSchema>;

/**
 * `GET /api/pricing` (public): the priced models the caller's group or `default` can call and the named
 * groups' ratios plus the caller's own; an admin gets every model and every ratio.
 */
export const pricingResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.array(modelPricingSchema),
  group_ratio: z.record(z.number().nonnegative()),
});
export type PricingResponse = z.infer<typeof pricingResponseSchema>;
