import { z } from 'zod';
import { baseServiceConfig, envAddressRanges, envBoolean, envInt, secret } from '@tollgate/platform';

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
  /** Shared state across replicas (the channel re-enable job's lock); process-local without it. */
  REDIS_URL: secret(z.string().url().optional()),
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
  /** 32 bytes, base64 or hex: seals upstream channel keys at rest and on catalog.channel (relay opens them). */
  TOLLGATE_ENCRYPTION_KEY: secret(z.string().min(32, 'must be a 32-byte key, base64 or hex')),
  /** Relay's own address (not the gateway's): channel tests go to its /internal/ route. */
  RELAY_URL: z.string().url().default('http://127.0.0.1:3003'),
  /** Billing's own address: /api/status offers only the payment providers billing holds credentials for. */
  BILLING_URL: z.string().url().default('http://127.0.0.1:3002'),
  /**
   * Non-public ranges a channel's base_url may point into (`loopback,private,link-local,unspecified`,
   * or `none`). None by default: an operator with self-hosted upstreams (Ollama, vLLM) allows their range.
   */
  CHANNEL_BASE_URL_ALLOWED_RANGES: envAddressRanges().default('none'),
  /** How long one channel test may take before it counts as failed. */
  CHANNEL_TEST_TIMEOUT_SECONDS: envInt().pipe(z.number().int().min(1).max(600)).default('60'),
  /** How often auto-disabled channels are tested and re-enabled when they pass; 0 turns it off. */
  CHANNEL_AUTO_ENABLE_INTERVAL_SECONDS: envInt().pipe(z.number().int().min(0)).default('300'),
  /** Consumer group that adds usage.recorded to channels' used_quota (a new group recounts from the start). */
  CHANNEL_USAGE_CONSUMER_GROUP: z.string().min(1).max(200).default('admin.channel-usage'),
  /** Consumer group that stores audit.recorded in the audit trail (a new group re-reads the topic; ids dedupe). */
  AUDIT_CONSUMER_GROUP: z.string().min(1).max(200).default('admin.audit'),
});
export type AdminConfig = z.output<typeof adminConfigSchema>;
