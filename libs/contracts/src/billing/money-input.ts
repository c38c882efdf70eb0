import { z } from 'zod';
import { normalizeDecimal } from './decimal';

/**
 * A decimal typed by a person (a JSON string or number) as its canonical string, bounded so
 * NUMERIC columns and the exact quota arithmetic never see absurd values.
 */
export const decimalInput = (maxWholeDigits: number, maxFractionDigits: number) => {
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

/** The same, refusing zero. */
export const positiveDecimalInput = (maxWholeDigits: number, maxFractionDigits: number) =>
  decimalInput(maxWholeDigits, maxFractionDigits).refine((value) => /[1-9]/.test(value), 'must be above 0');

/** Rubles with kopecks: at most 9 999 999 999.99. */
export const rubleAmountSchema = positiveDecimalInput(10, 2);

export const epochSecondsSchema = z.number().int().nonnegative();
