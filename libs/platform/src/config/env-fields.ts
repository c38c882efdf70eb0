import { z } from 'zod';

/** Environment values are text; these read the common shapes with messages that name what is expected. */
export const envInt = () =>
  z
    .string()
    .regex(/^-?\d+$/, 'must be an integer')
    .transform(Number)
    .pipe(z.number().int().safe());

export const envPort = () =>
  z
    .string()
    .regex(/^\d+$/, 'must be a port number (0-65535)')
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(0, 'must be a port number (0-65535)')
        .max(65535, 'must be a port number (0-65535)'),
    );

export const envBoolean = () =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], {
      errorMap: () => ({ message: 'must be one of true, false, 1, 0, yes, no' }),
    })
    .transform((value) => value === 'true' || value === '1' || value === 'yes');
