import { z } from 'zod';
import { decimalSchema } from '../events/money';
import { epochSecondsSchema, positiveDecimalInput } from './money-input';

/** Where the rate in force comes from: the Central Bank's daily list, an admin, or configuration. */
export const EXCHANGE_RATE_SOURCES = ['cbr', 'admin', 'config'] as const;
export type ExchangeRateSource = (typeof EXCHANGE_RATE_SOURCES)[number];

/** `GET /api/exchange-rate`: rubles per US dollar as an exact decimal string. */
export const exchangeRateSchema = z.object({
  usd_rub: decimalSchema,
  updated_at: epochSecondsSchema,
  source: z.enum(EXCHANGE_RATE_SOURCES),
  /** True when the source could not be refreshed lately and an older rate (or the configured one) serves. */
  stale: z.boolean(),
});
export type ExchangeRate = z.infer<typeof exchangeRateSchema>;

/** Rubles per dollar: at most 999 999.999999. */
export const usdRubRateSchema = positiveDecimalInput(6, 6);

/** `PUT /api/exchange-rate`: a rate that wins over the Central Bank's, or null to follow the bank again. */
export const exchangeRateOverrideSchema = z.object({ usd_rub: usdRubRateSchema.nullable() }).strict();
export type ExchangeRateOverride = z.output<typeof exchangeRateOverrideSchema>;
