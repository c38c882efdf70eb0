import { z } from 'zod';
import { baseServiceConfig, envBoolean, envInt, secret } from '@tollgate/platform';

const positiveInt = (fallback: string) => envInt().pipe(z.number().int().min(1)).default(fallback);

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
  /** Registration needs a code mailed to the address (on in production). */
  TOLLGATE_EMAIL_VERIFICATION: envBoolean().default('true'),
  /** smtp(s)://user:pass@host:port; without it mail is written as .eml files to MAIL_OUTBOX_DIR. */
  SMTP_URL: secret(
    z.string().url('must be a URL like smtps://user:password@smtp.example.com:465').optional(),
  ),
  MAIL_FROM: z.string().min(3).default('Tollgate <no-reply@tollgate.local>'),
  TOLLGATE_DATA_DIR: z.string().min(1).default('data'),
  /** Where mail goes without SMTP; defaults to <TOLLGATE_DATA_DIR>/outbox. */
  MAIL_OUTBOX_DIR: z.string().min(1).optional(),
  AUTH_SESSION_TTL_HOURS: positiveInt('720'),
  /** Sign-in attempts per minute from one client address and for one username. */
  AUTH_LOGIN_LIMIT_PER_IP: positiveInt('30'),
  AUTH_LOGIN_LIMIT_PER_USERNAME: positiveInt('10'),
  /** Billing's internal address: user admin sets balances there (ACCOUNT_SET_QUOTA_CALL). */
  BILLING_URL: z.string().url().default('http://127.0.0.1:3002'),
  /**
   * OAuth sign-in: a provider is enabled when its client id and secret are set. The endpoints are
   * settable so tests (and a self-hosted GitHub Enterprise) can point elsewhere.
   */
  GITHUB_CLIENT_ID: z.string().min(1).optional(),
  GITHUB_CLIENT_SECRET: secret(z.string().min(1).optional()),
  GITHUB_AUTHORIZE_URL: z.string().url().default('https://github.com/login/oauth/authorize'),
  GITHUB_TOKEN_URL: z.string().url().default('https://github.com/login/oauth/access_token'),
  GITHUB_PROFILE_URL: z.string().url().default('https://api.github.com/user'),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: secret(z.string().min(1).optional()),
  GOOGLE_AUTHORIZE_URL: z.string().url().default('https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_TOKEN_URL: z.string().url().default('https://oauth2.googleapis.com/token'),
  GOOGLE_PROFILE_URL: z.string().url().default('https://www.googleapis.com/oauth2/v3/userinfo'),
  DISCORD_CLIENT_ID: z.string().min(1).optional(),
  DISCORD_CLIENT_SECRET: secret(z.string().min(1).optional()),
  DISCORD_AUTHORIZE_URL: z.string().url().default('https://discord.com/api/oauth2/authorize'),
  DISCORD_TOKEN_URL: z.string().url().default('https://discord.com/api/oauth2/token'),
  DISCORD_PROFILE_URL: z.string().url().default('https://discord.com/api/users/@me'),
  /** Where the web client's return pages live: the redirect URI is <this>/oauth/<provider>. */
  OAUTH_REDIRECT_BASE_URL: z.string().url().default('http://localhost:3000'),
  /** OAuth sign-in attempts per minute from one client address. */
  AUTH_OAUTH_LIMIT_PER_IP: positiveInt('30'),
  /** How often API keys past their expiry time are marked expired. */
  AUTH_TOKEN_EXPIRY_SWEEP_SECONDS: positiveInt('30'),
  /** Verification codes one client address may ask for per hour. */
  AUTH_VERIFICATION_LIMIT_PER_IP: positiveInt('20'),
});
export type AuthConfig = z.output<typeof authConfigSchema>;
