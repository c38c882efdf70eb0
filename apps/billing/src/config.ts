import { z } from 'zod';
import { baseServiceConfig, envBoolean, secret } from '@tollgate/platform';

export const billingConfigSchema = z.object({
  ...baseServiceConfig,
  SERVICE_NAME: baseServiceConfig.SERVICE_NAME.default('billing'),
  PORT: baseServiceConfig.PORT.default('3002'),
  DATABASE_URL: secret(z.string().url()),
  REDIS_URL: secret(z.string().url().optional()),
  KAFKA_BROKERS: z.string().optional(),
  OUTBOX_RELAY_ENABLED: envBoolean().default('true'),
});
export type BillingConfig = z.output<typeof billingConfigSchema>;
