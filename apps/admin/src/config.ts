import { z } from 'zod';
import { baseServiceConfig, envBoolean, secret } from '@tollgate/platform';

const commaList = z
  .string()
  .default('')
  .transform((s) =>
    s
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  );

export const adminConfigSchema = z.object({
  ...baseServiceConfig,
  SERVICE_NAME: baseServiceConfig.SERVICE_NAME.default('admin'),
  PORT: baseServiceConfig.PORT.default('3005'),
  DATABASE_URL: secret(z.string().url()),
  KAFKA_BROKERS: z.string().optional(),
  OUTBOX_RELAY_ENABLED: envBoolean().default('true'),
  /** The public address of the platform, shown to users as the API base. */
  SERVER_ADDRESS: z.string().url().default('http://localhost:3000'),
  SYSTEM_NAME: z.string().min(1).default('Tollgate'),
  /** Models offered in the online chat, comma-separated. */
  CHAT_MODELS: commaList,
  GITHUB_CLIENT_ID: z.string().default(''),
  GITHUB_CLIENT_SECRET: secret(z.string().default('')),
  GOOGLE_CLIENT_ID: z.string().default(''),
  GOOGLE_CLIENT_SECRET: secret(z.string().default('')),
  DISCORD_CLIENT_ID: z.string().default(''),
  DISCORD_CLIENT_SECRET: secret(z.string().default('')),
  DISCORD_REDIRECT_URI: z.string().default(''),
  TOLLGATE_EMAIL_VERIFICATION: envBoolean().default('true'),
  TOLLGATE_PAYMENT_TEST: envBoolean().default('false'),
  TOLLGATE_DEFAULT_CURRENCY: z.enum(['RUB', 'USD']).catch('RUB').default('RUB'),
});
export type AdminConfig = z.output<typeof adminConfigSchema>;
