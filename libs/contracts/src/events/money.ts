import { z } from 'zod';

/** Quota units: 500 000 = $1 (SPEC §9). Always a safe integer, never a float. */
export const QUOTA_PER_USD = 500_000;
export const quotaSchema = z.number().int().safe();

/** A decimal amount as a string (NUMERIC in the database): "0.15", "1250.00". */
export const DECIMAL_PATTERN = /^-?\d{1,15}(\.\d{1,12})?$/;
export const decimalSchema = z.string().regex(DECIMAL_PATTERN, 'a decimal number as a string');
