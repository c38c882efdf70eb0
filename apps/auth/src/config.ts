import { z } from 'zod';
import { baseServiceConfig, envBoolean, secret } from '@tollgate/platform';

export const authConfigSchema = z.object({
  ...baseServiceConfig,
  SERVICE_NAME: baseServiceConfig.SERVICE_NAME.default('auth'),
  PORT: baseServiceConfig.PORT.default('3001'),
  DATABASE_URL: secret(z.string().url()),
  REDIS_URL: secret(z.string().url().optional()),
  KAFKA_BROKERS: z.string().optional(),
  /** 32 bytes, base64 or hex: encrypts API keys at rest (AES-256-GCM). */
  TOLLGATE_ENCRYPTION_KEY: secret(z.string().min(32, 'must be a 32-byte key, base64 or hex')),
  /** The first root user, created once when no root exists. There is no default password. */
  TOLLGATE_ROOT_USERNAME: z.string().min(1).max(20).default('root'),
  TOLLGATE_ROOT_PASSWORD: secret(z.string().min(8, 'must be at least 8 characters').max(64).optional()),
  /** Run the outbox publisher in this process (false: another replica or a worker publishes). */
  OUTBOX_RELAY_ENABLED: envBoolean().default('true'),
});
export type AuthConfig = z.output<typeof authConfigSchema>;
