import { z } from 'zod';
import { baseServiceConfig, envAddressRanges, envBoolean, envInt, secret } from '@tollgate/platform';

export const chatConfigSchema = z.object({
  ...baseServiceConfig,
  SERVICE_NAME: baseServiceConfig.SERVICE_NAME.default('chat'),
  PORT: baseServiceConfig.PORT.default('3004'),
  DATABASE_URL: secret(z.string().url()),
  KAFKA_BROKERS: z.string().optional(),
  OUTBOX_RELAY_ENABLED: envBoolean().default('true'),
  /** Wraps each user's data key (message text is sealed with the user's key). */
  TOLLGATE_ENCRYPTION_KEY: secret(z.string().min(1)),
  /** Answers come through relay's internal chat calls. */
  RELAY_URL: z.string().url().default('http://127.0.0.1:3003'),
  /** Billing's usage records give a stopped answer its cost (relay bills it through the usage event). */
  BILLING_URL: z.string().url().default('http://127.0.0.1:3002'),
  /** Admin's /api/status says which models the chat offers (chat_models). */
  ADMIN_URL: z.string().url().default('http://127.0.0.1:3005'),
  /** How long the offered models (admin's chat_models, relay's models per user) are reused. */
  CHAT_MODELS_CACHE_MS: envInt().pipe(z.number().min(0).max(600_000)).default('5000'),
  /** The longest title answer asked for (tokens). */
  CHAT_TITLE_MAX_TOKENS: envInt().pipe(z.number().min(4).max(200)).default('24'),
  /**
   * Non-public ranges an image URL in a message may point into (`loopback,private,link-local,unspecified`,
   * or `none`). None by default: the upstream that fetches the image may sit inside the operator's network.
   */
  CHAT_IMAGE_URL_ALLOWED_RANGES: envAddressRanges().default('none'),
});
export type ChatConfig = z.output<typeof chatConfigSchema>;
