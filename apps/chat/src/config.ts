import { z } from 'zod';
import { baseServiceConfig, envBoolean, secret } from '@tollgate/platform';

export const chatConfigSchema = z.object({
  ...baseServiceConfig,
  SERVICE_NAME: baseServiceConfig.SERVICE_NAME.default('chat'),
  PORT: baseServiceConfig.PORT.default('3004'),
  DATABASE_URL: secret(z.string().url()),
  KAFKA_BROKERS: z.string().optional(),
  OUTBOX_RELAY_ENABLED: envBoolean().default('true'),
});
export type ChatConfig = z.output<typeof chatConfigSchema>;
