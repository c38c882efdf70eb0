import { z } from 'zod';
import { baseServiceConfig, secret } from '@tollgate/platform';

export const relayConfigSchema = z.object({
  ...baseServiceConfig,
  SERVICE_NAME: baseServiceConfig.SERVICE_NAME.default('relay'),
  PORT: baseServiceConfig.PORT.default('3003'),
  REDIS_URL: secret(z.string().url().optional()),
  KAFKA_BROKERS: z.string().optional(),
});
export type RelayConfig = z.output<typeof relayConfigSchema>;
